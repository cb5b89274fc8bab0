export * from "./KeyStoreContract.js"
export * from "./SoftHsmToken.js"
export * from "./TokenKeyAttributes.js"
