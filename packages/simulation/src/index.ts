export * from "./Plants.js"
export * from "./RunStorage.js"
export * from "./Runner.js"
export * from "./Simulation.js"
