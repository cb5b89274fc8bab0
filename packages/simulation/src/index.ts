export * from "./Runner"
export * from "./Simulation"
