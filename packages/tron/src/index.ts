export * as LocalSigner from "./LocalSigner"
export * as LocalWalletKeys from "./LocalWalletKeys"
export * as TronAddress from "./TronAddress"
export * as TronSignature from "./TronSignature"
