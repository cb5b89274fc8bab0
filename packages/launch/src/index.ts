export * from "./launch"
