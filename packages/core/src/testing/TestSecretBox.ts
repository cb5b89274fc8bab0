import { Effect, Layer } from "effect"
import { SecretBox, SecretBoxError } from "../secrets/SecretBox.js"

/**
 * A SecretBox for tests that keeps secrets as they are (sealed under the key ID "test"), so the
 * fixtures' sealed keys open to their own bytes. Secrets sealed under a key ID in `lost` cannot
 * be opened, as if that master key were gone. It binds no place: what a value's place does is the
 * real box's to show (packages/vault).
 */
export const layer = (options: { readonly lost?: ReadonlyArray<string> } = {}) =>
  Layer.succeed(SecretBox, SecretBox.of({
    seal: (plaintext) => Effect.succeed({ keyId: "test", blob: new Uint8Array(plaintext) }),
    open: (sealed) =>
      options.lost?.includes(sealed.keyId) === true
        ? Effect.fail(new SecretBoxError({ reason: `master key ${sealed.keyId} is not available` }))
        : Effect.succeed(new Uint8Array(sealed.blob)),
    isCurrent: (sealed) => sealed.keyId === "test",
    keyIds: { current: "test", previous: [] }
  }))
