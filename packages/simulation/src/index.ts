export * from "./Plants"
export * from "./RunStorage"
export * from "./Runner"
export * from "./Simulation"
