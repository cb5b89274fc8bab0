import { Effect, Layer } from "effect"
import { EnvelopeSealer } from "../notifications/EnvelopeSealer.js"

/** What a test envelope carries, in the clear. */
export interface OpenedEnvelope {
  /** The webhook key it was sealed under, as hex. */
  readonly key: string
  readonly payload: string
  readonly timestamp: string
  /** Different on every call, as a real envelope's nonce. */
  readonly nonce: number
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/**
 * An EnvelopeSealer for tests (the contract's sealer lives in packages/api, which the core cannot
 * use): it "seals" reversibly, so a test reads what was sent with `openTestEnvelope`, including
 * the key it was sealed under. Not encryption.
 */
export const layer = Layer.sync(EnvelopeSealer, () => {
  let nonce = 0
  return EnvelopeSealer.of({
    seal: (key, payload, timestamp) =>
      Effect.sync(() => JSON.stringify({ test_envelope: { key: hex(key), payload, timestamp, nonce: ++nonce } }))
  })
})

export const openTestEnvelope = (body: string): OpenedEnvelope => (JSON.parse(body) as { test_envelope: OpenedEnvelope }).test_envelope
