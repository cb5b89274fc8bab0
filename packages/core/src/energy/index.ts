export * from "./EnergyProvider.js"
export * from "./EnergyRental.js"
export * from "./NoEnergyProvider.js"
