import { createCipheriv, createDecipheriv } from "node:crypto"
import { Entropy, SecretBox, SecretBoxError } from "@collector/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { MasterKeyring } from "./MasterKeyring.js"

const nonceLength = 12
const tagLength = 16

/**
 * The key id is authenticated as AAD, so a blob copied under another key's record fails to
 * open instead of being misattributed.
 */
const aad = (keyId: string) => Buffer.from(keyId, "utf8")

/**
 * SecretBox over AES-256-GCM with the keyring's master keys.
 * Blob layout: 12-byte random nonce || ciphertext || 16-byte tag. Random nonces are safe
 * here: secrets are few, far below the ~2^32 seals per key where collisions become a risk.
 * The nonce comes from the Entropy port (the OS CSPRNG in every process; a seeded source only
 * in deterministic simulations).
 */
export const make = (keyring: MasterKeyring["Type"], entropy: Entropy["Type"]): SecretBox["Type"] => ({
  seal: (plaintext) =>
    Effect.flatMap(entropy.bytes(nonceLength), (nonce) => Effect.sync(() => {
      const key = keyring.current
      const cipher = createCipheriv("aes-256-gcm", Redacted.value(key.bytes), nonce, { authTagLength: tagLength })
      cipher.setAAD(aad(key.id))
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
      const blob = new Uint8Array(nonceLength + ciphertext.length + tagLength)
      // Copied into a fresh array: Buffer.concat can return a view of Node's shared pool,
      // and persisting `blob.buffer` would then write unrelated memory.
      blob.set(nonce, 0)
      blob.set(ciphertext, nonceLength)
      blob.set(cipher.getAuthTag(), nonceLength + ciphertext.length)
      return { keyId: key.id, blob }
    })),
  open: (sealed) =>
    Effect.gen(function*() {
      const key = keyring.find(sealed.keyId)
      if (Option.isNone(key)) {
        return yield* new SecretBoxError({
          reason: `no master key with id ${JSON.stringify(sealed.keyId)}: add the key that sealed it to MASTER_KEY_PREVIOUS`
        })
      }
      const { blob } = sealed
      if (blob.length < nonceLength + tagLength) {
        return yield* new SecretBoxError({ reason: "sealed blob is too short to be an AES-GCM blob" })
      }
      return yield* Effect.try({
        try: () => {
          const decipher = createDecipheriv(
            "aes-256-gcm",
            Redacted.value(key.value.bytes),
            blob.subarray(0, nonceLength),
            { authTagLength: tagLength }
          )
          decipher.setAAD(aad(key.value.id))
          decipher.setAuthTag(blob.subarray(blob.length - tagLength))
          const head = decipher.update(blob.subarray(nonceLength, blob.length - tagLength))
          const tail = decipher.final()
          // A fresh array for the caller; the decipher's own buffers (possibly slices of Node's
          // shared pool) are wiped so that no copy of a private key outlives this call.
          const plaintext = new Uint8Array(head.length + tail.length)
          plaintext.set(head)
          plaintext.set(tail, head.length)
          head.fill(0)
          tail.fill(0)
          return plaintext
        },
        // Node's message ("Unsupported state or unable to authenticate data") adds nothing
        // and is not ours to promise is free of detail, so the reason is fixed text.
        catch: () =>
          new SecretBoxError({ reason: "sealed value failed authentication: it was altered or sealed under another key" })
      })
    })
})

/** SecretBox backed by the MasterKeyring and the Entropy in context. */
export const layer: Layer.Layer<SecretBox, never, MasterKeyring | Entropy> = Layer.effect(
  SecretBox,
  Effect.map(Effect.all([MasterKeyring, Entropy]), ([keyring, entropy]) => make(keyring, entropy))
)
