import { Context, type Effect, type Option } from "effect"
import type { OperatorCredential, OperatorCredentialKind } from "./OperatorCredential.js"

export interface NewOperatorCredential {
  readonly kind: OperatorCredentialKind
  /** The token a session is opened with; null for a token. */
  readonly tokenId: string | null
  readonly expiresAt: Date
}

/** Port: operator tokens and console sessions, kept only as a hash of their secret text. */
export class OperatorTokenRepository extends Context.Tag("@collector/core/OperatorTokenRepository")<
  OperatorTokenRepository,
  {
    /** Stores a credential under a new ID; a hash stored already, or an unknown token, is a defect. */
    readonly insert: (secretHash: Uint8Array, credential: NewOperatorCredential) => Effect.Effect<OperatorCredential>
    readonly findByHash: (secretHash: Uint8Array) => Effect.Effect<Option.Option<OperatorCredential>>
    readonly get: (id: string) => Effect.Effect<Option.Option<OperatorCredential>>
    /** The tokens (not sessions), newest first, revoked and expired ones included. */
    readonly listTokens: (limit: number) => Effect.Effect<ReadonlyArray<OperatorCredential>>
    /** Marks the credential revoked at `at` unless it is already (the first revocation stays); none when unknown. */
    readonly revoke: (id: string, at: Date) => Effect.Effect<Option.Option<OperatorCredential>>
  }
>() {}
