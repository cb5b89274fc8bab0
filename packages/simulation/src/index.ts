export * from "./Runner"
export * from "./Simulation"
export * from "./Plants"
