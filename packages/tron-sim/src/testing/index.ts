export * from "./SimNode.js"
export * from "./SimProviderChain.js"
export * from "./SimTestChain.js"
export * from "./SimWallet.js"
