export * from "./ApiServiceLive"
export * from "./NetworkResourcesLive"
