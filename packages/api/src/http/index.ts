export * from "./CanonicalQuery.js"
export * from "./ParamsDigest.js"
export * from "./Signature.js"
export * from "./StrictJsonBody.js"
