export * from "./ComponentStatusContract"
