export * as CatFeeEnergyProvider from "./CatFeeEnergyProvider"
export * from "./EnergyProviderConfig"
export * as NoEnergyProvider from "./NoEnergyProvider"
export * as SimEnergyProvider from "./SimEnergyProvider"
