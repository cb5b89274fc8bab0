import { Context, Data, type Effect } from "effect"
import type { SealContext } from "./SealContext.js"

/** A secret sealed at rest: which master key sealed it, and the sealed bytes. */
export interface Sealed {
  readonly keyId: string
  readonly blob: Uint8Array
}

export class SecretBoxError extends Data.TaggedError("SecretBoxError")<{ readonly reason: string }> {}

/**
 * Port: encrypts secrets at rest under the service master key. The key id travels with
 * every sealed value so that the master key can be rotated without re-encrypting at once.
 * A value is sealed for one place (`SealContext`) and opens only there.
 */
export class SecretBox extends Context.Tag("@collector/core/SecretBox")<
  SecretBox,
  {
    readonly seal: (plaintext: Uint8Array, context: SealContext) => Effect.Effect<Sealed>
    readonly open: (sealed: Sealed, context: SealContext) => Effect.Effect<Uint8Array, SecretBoxError>
    /**
     * Whether the value is sealed as `seal` would seal it now: under the current master key, in
     * the current format (bound to its place). Anything else is worth re-sealing.
     */
    readonly isCurrent: (sealed: Sealed) => boolean
    /** The current master key's id and the ids of the older keys that still open values. */
    readonly keyIds: { readonly current: string; readonly previous: ReadonlyArray<string> }
  }
>() {}
