import { Kernel, Notifications } from "@collector/core"
import { Effect, Layer } from "effect"
import { sealEnvelope } from "./WebhookEnvelope.js"

/** The contract's envelope with 12 fresh bytes from the Entropy port (the OS CSPRNG) as the nonce of every attempt. */
export const make = (entropy: Kernel.Entropy["Type"]) =>
  Notifications.EnvelopeSealer.of({
    seal: (key, payload, timestamp) =>
      Effect.flatMap(entropy.bytes(12), (nonce) => Effect.sync(() => JSON.stringify(sealEnvelope({ key, plaintext: payload, timestamp, nonce }))))
  })

export const layer: Layer.Layer<Notifications.EnvelopeSealer, never, Kernel.Entropy> = Layer.effect(Notifications.EnvelopeSealer, Effect.map(Kernel.Entropy, make))
