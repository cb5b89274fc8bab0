export * as CatFeeEnergyProvider from "./CatFeeEnergyProvider.js"
export * from "./EnergyProviderConfig.js"
export * as SimEnergyProvider from "./SimEnergyProvider.js"
export * from "./RawJson.js"
