export * from "./WebhookTargets"
export * from "./WebhookUrl"
export * from "./WebhookUrlRejected"
