export * from "./ApiServer"
export * from "./gate/AccessLog"
export * from "./gate/GateSettings"
