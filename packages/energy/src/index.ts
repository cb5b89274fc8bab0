export * as CatFeeEnergyProvider from "./CatFeeEnergyProvider"
export * from "./EnergyProviderConfig"
export * as SimEnergyProvider from "./SimEnergyProvider"
export * from "./RawJson"
