export * from "@collector/api/ApiErrors"
export * from "./CollectorClient"
export type { SdkConfig } from "./SdkConfig"
export * from "./webhook/index"
