export * from "./ApiProcess"
export * from "./NetworkResourcesLive"
