import { EnvelopeSealer } from "@collector/core"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { sealEnvelope } from "./WebhookEnvelope"

/** The contract's envelope with 12 fresh CSPRNG bytes as the nonce of every attempt. */
export const make = EnvelopeSealer.of({
  seal: (key, payload, timestamp) =>
    Effect.sync(() => JSON.stringify(sealEnvelope({ key, plaintext: payload, timestamp, nonce: randomBytes(12) })))
})

export const layer = Layer.succeed(EnvelopeSealer, make)
