import { Context, type Effect, type Option } from "effect"
import type { AppId } from "./Ids.js"

export interface StoredAccessToken {
  readonly appId: AppId
  readonly expiresAt: Date
}

/** Port: access tokens, kept only as a hash of the token text. */
export class AccessTokenRepository extends Context.Tag("@collector/core/AccessTokenRepository")<
  AccessTokenRepository,
  {
    readonly insert: (tokenHash: Uint8Array, appId: AppId, expiresAt: Date) => Effect.Effect<void>
    readonly find: (tokenHash: Uint8Array) => Effect.Effect<Option.Option<StoredAccessToken>>
    /** Deletes at most `limit` tokens expiring at or before `now` (a bounded batch); returns how many. */
    readonly deleteExpired: (now: Date, limit: number) => Effect.Effect<number>
  }
>() {}
