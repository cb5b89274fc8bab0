export * from "./ApiErrors.js"
export * from "./CollectorClient.js"
export * from "./SdkConfig.js"
export * from "./webhook/index.js"
