import { Context, Data, type Effect } from "effect"

/** A secret sealed at rest: which master key sealed it, and the sealed bytes. */
export interface Sealed {
  readonly keyId: string
  readonly blob: Uint8Array
}

export class SecretBoxError extends Data.TaggedError("SecretBoxError")<{ readonly reason: string }> {}

/**
 * Port: encrypts secrets at rest under the service master key. The key id travels with
 * every sealed value so that the master key can be rotated without re-encrypting at once.
 */
export class SecretBox extends Context.Tag("@collector/core/SecretBox")<
  SecretBox,
  {
    readonly seal: (plaintext: Uint8Array) => Effect.Effect<Sealed>
    readonly open: (sealed: Sealed) => Effect.Effect<Uint8Array, SecretBoxError>
  }
>() {}
