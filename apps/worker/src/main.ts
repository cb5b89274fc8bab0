import { launch } from "@collector/launch"
import { DatabaseLive } from "@collector/postgres"
import { Config, Effect, Layer } from "effect"
import { resolve } from "node:path"
import { WorkerLoops } from "./WorkerLive"

const WorkerServiceLive = Layer.unwrapEffect(
  Effect.map(Config.string("DATA_DIR").pipe(Config.withDefault(".data")), (dataDir) =>
    WorkerLoops.pipe(Layer.provide(DatabaseLive(resolve(dataDir)))))
)

launch("worker", WorkerServiceLive)
