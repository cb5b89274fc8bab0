export * from "./WebhookEnvelope.js"
export * as WebhookEnvelopeSealer from "./WebhookEnvelopeSealer.js"
export * from "./WebhookBodies.js"
