export * from "./WebhookTargets.js"
export * from "./WebhookUrl.js"
export * from "./WebhookUrlRejected.js"
export * from "./WebhookHost.js"
