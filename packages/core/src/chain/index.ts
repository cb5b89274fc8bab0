export * from "./Chain"
export * from "./ChainErrors"
export * from "./ChainModel"
