export * from "./CanonicalQuery"
export * from "./ParamsDigest"
export * from "./Signature"
export * from "./StrictJsonBody"
