export * from "./WebhookEnvelope"
export * as WebhookEnvelopeSealer from "./WebhookEnvelopeSealer"
export * from "./WebhookBodies"
