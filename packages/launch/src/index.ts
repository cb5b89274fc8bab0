export * from "./launch.js"
