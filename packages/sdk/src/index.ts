export * from "./ApiErrors"
export * from "./CollectorClient"
export * from "./SdkConfig"
export * from "./webhook/index"
