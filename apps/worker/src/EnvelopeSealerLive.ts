import { sealEnvelope } from "@collector/api"
import { EnvelopeSealer } from "@collector/core"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"

/** The contract's envelope (packages/api) with 12 fresh CSPRNG bytes as the nonce of every attempt. */
export const EnvelopeSealerLive = Layer.succeed(EnvelopeSealer, EnvelopeSealer.of({
  seal: (key, payload, timestamp) =>
    Effect.sync(() => JSON.stringify(sealEnvelope({ key, plaintext: payload, timestamp, nonce: randomBytes(12) })))
}))
