export * from "./Idempotency.js"
export * from "./Idempotent.js"
export * as MemoryIdempotencyStore from "./MemoryIdempotencyStore.js"
