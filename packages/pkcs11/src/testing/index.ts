export * from "./KeyStoreContract.js"
export * from "./SoftHsmToken.js"
