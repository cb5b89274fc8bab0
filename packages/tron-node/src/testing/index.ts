export * from "./ChainContractSuite.js"
