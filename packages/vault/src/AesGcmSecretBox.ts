import { createCipheriv, createDecipheriv } from "node:crypto"
import { Kernel, Secrets } from "@collector/core"
import { Effect, Layer, Option, Redacted } from "effect"
import type { MasterKey } from "./MasterKey.js"
import { MasterKeyring } from "./MasterKeyring.js"
import { aadV1, aadV2, hasHeader, header } from "./SealedFormat.js"

const nonceLength = 12
const tagLength = 16

const failedAuthentication = "sealed value failed authentication: it was altered, moved from its place, or sealed under another key"

/**
 * Opens nonce || ciphertext || tag with `aad`; None when it does not authenticate. The decipher's
 * own buffers (possibly slices of Node's shared pool) are wiped so that no copy of a private key
 * outlives this call; the caller gets a fresh array.
 */
const openRaw = (key: MasterKey, body: Uint8Array, aad: Uint8Array): Option.Option<Uint8Array> => {
  if (body.length < nonceLength + tagLength) return Option.none()
  try {
    const decipher = createDecipheriv("aes-256-gcm", Redacted.value(key.bytes), body.subarray(0, nonceLength), { authTagLength: tagLength })
    decipher.setAAD(aad)
    decipher.setAuthTag(body.subarray(body.length - tagLength))
    const head = decipher.update(body.subarray(nonceLength, body.length - tagLength))
    const tail = decipher.final()
    const plaintext = new Uint8Array(head.length + tail.length)
    plaintext.set(head)
    plaintext.set(tail, head.length)
    head.fill(0)
    tail.fill(0)
    return Option.some(plaintext)
  } catch {
    // Node's message ("Unsupported state or unable to authenticate data") adds nothing and is not
    // ours to promise is free of detail, so the caller's reason is fixed text.
    return Option.none()
  }
}

/**
 * SecretBox over AES-256-GCM with the keyring's master keys.
 * Blob layout (SealedFormat): header || 12-byte random nonce || ciphertext || 16-byte tag, the
 * additional data binding the key id and the value's place. Random nonces are safe here: secrets
 * are few, far below the ~2^32 seals per key where collisions become a risk. The nonce comes from
 * the Entropy port (the OS CSPRNG in every process; a seeded source only in deterministic
 * simulations). Values sealed before places were bound (no header) still open, by key id alone.
 */
export const make = (keyring: MasterKeyring["Type"], entropy: Kernel.Entropy["Type"]): Secrets.SecretBox["Type"] => ({
  seal: (plaintext, context) =>
    Effect.flatMap(entropy.bytes(nonceLength), (nonce) => Effect.sync(() => {
      const key = keyring.current
      const cipher = createCipheriv("aes-256-gcm", Redacted.value(key.bytes), nonce, { authTagLength: tagLength })
      cipher.setAAD(aadV2(key.id, context))
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
      const blob = new Uint8Array(header.length + nonceLength + ciphertext.length + tagLength)
      // Copied into a fresh array: Buffer.concat can return a view of Node's shared pool,
      // and persisting `blob.buffer` would then write unrelated memory.
      blob.set(header, 0)
      blob.set(nonce, header.length)
      blob.set(ciphertext, header.length + nonceLength)
      blob.set(cipher.getAuthTag(), header.length + nonceLength + ciphertext.length)
      return { keyId: key.id, blob }
    })),
  open: (sealed: Secrets.Sealed, context: Secrets.SealContext) =>
    Effect.gen(function*() {
      const key = keyring.find(sealed.keyId)
      if (Option.isNone(key)) {
        return yield* new Secrets.SecretBoxError({
          reason: `no master key with id ${JSON.stringify(sealed.keyId)}: add the key that sealed it to MASTER_KEY_PREVIOUS`
        })
      }
      const { blob } = sealed
      if (blob.length < nonceLength + tagLength) {
        return yield* new Secrets.SecretBoxError({ reason: "sealed blob is too short to be an AES-GCM blob" })
      }
      const opened = Option.orElse(
        hasHeader(blob) ? openRaw(key.value, blob.subarray(header.length), aadV2(key.value.id, context)) : Option.none(),
        () => openRaw(key.value, blob, aadV1(key.value.id))
      )
      if (Option.isNone(opened)) return yield* new Secrets.SecretBoxError({ reason: failedAuthentication })
      return opened.value
    }),
  isCurrent: (sealed) => sealed.keyId === keyring.current.id && hasHeader(sealed.blob),
  keyIds: { current: keyring.current.id, previous: keyring.previous.map((key) => key.id) }
})

/** SecretBox backed by the MasterKeyring and the Entropy in context. */
export const layer: Layer.Layer<Secrets.SecretBox, never, MasterKeyring | Kernel.Entropy> = Layer.effect(
  Secrets.SecretBox,
  Effect.map(Effect.all([MasterKeyring, Kernel.Entropy]), ([keyring, entropy]) => make(keyring, entropy))
)
