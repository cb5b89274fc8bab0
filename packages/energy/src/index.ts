export * as CatFeeEnergyProvider from "./CatFeeEnergyProvider.js"
export * from "./EnergyProviderConfig.js"
export * as MerxEnergyProvider from "./MerxEnergyProvider.js"
export * as SimEnergyProvider from "./SimEnergyProvider.js"
