export * from "./CatFeeServer.js"
