export * from "./RecordPruning.js"
export * from "./RecordPruningSettings.js"
