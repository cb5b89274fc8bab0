export * as ApiProcess from "./ApiProcess.js"
export * from "./NetworkResourcesLive.js"
export * from "./ProcessStorage.js"
export * as WorkerProcess from "./WorkerProcess.js"
