import { launch } from "@collector/launch"
import { WorkerProcess } from "@collector/server"
import { Effect, Layer } from "effect"
import { crashPointConfig } from "./CrashPoint.js"

launch("worker", Layer.unwrapEffect(Effect.map(crashPointConfig, (checkpoint) => WorkerProcess.layerConfig({ checkpoint }))), {
  describe: WorkerProcess.describe,
  ports: WorkerProcess.ports
})
