export * from "./CatFeeServer.js"
export * from "./MerxServer.js"
