export * as ApiProcess from "./ApiProcess"
export * from "./NetworkResourcesLive"
export * as WorkerProcess from "./WorkerProcess"
