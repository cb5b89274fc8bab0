export * from "./WebhookEnvelope"
