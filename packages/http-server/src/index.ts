export * from "./ApiServer.js"
export * from "./gate/AccessLog.js"
export * from "./gate/GateSettings.js"
