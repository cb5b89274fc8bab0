export * from "./CatFeeServer"
