export * from "./EnergyProvider"
export * from "./EnergyRental"
