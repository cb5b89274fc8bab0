export * from "./ApiServer"
export * from "./gate/GateSettings"
