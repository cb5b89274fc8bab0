export * as WorkerProcess from "./WorkerProcess"
