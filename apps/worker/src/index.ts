export * from "./NetworkWorker"
export * from "./ScannerConfig"
export * from "./WorkerLive"
export * from "./WorkerNetworks"
