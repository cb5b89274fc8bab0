export * from "./Chain.js"
export * from "./ChainErrors.js"
export * from "./ChainModel.js"
