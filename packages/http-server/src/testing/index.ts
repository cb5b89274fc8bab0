export * from "./TestServer.js"
export * from "./Assertions.js"
export * from "./Calls.js"
export * from "./Tenants.js"
