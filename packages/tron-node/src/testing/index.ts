export * from "./ChainContractSuite"
