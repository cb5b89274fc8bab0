export * from "./TestServer"
