export * from "./ServiceLive"
export * from "./SimulatedNile"
