export * from "./ApiServiceLive"
