export * from "./ApiServer.js"
export * from "./gate/AccessLog.js"
export * from "./gate/GateSettings.js"
export * from "./gate/RequestMetrics.js"
