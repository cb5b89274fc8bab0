export * from "./TestReceiver.js"
