export * from "./TestReceiver"
