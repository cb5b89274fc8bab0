export * from "./EnergyProvider"
export * from "./EnergyRental"
export * from "./NoEnergyProvider"
