export * from "./TestServer.js"
