import { launch } from "@collector/launch"
import { DatabaseLive } from "@collector/postgres"
import { MasterKeyring } from "@collector/vault"
import { Config, Effect, Layer } from "effect"
import { resolve } from "node:path"
import { WorkerLoops } from "./WorkerLive"

const WorkerServiceLive = Layer.unwrapEffect(
  Effect.map(Config.string("DATA_DIR").pipe(Config.withDefault(".data")), (dataDir) =>
    // The same master key as the API's: webhook keys are sealed under it.
    WorkerLoops.pipe(Layer.provide([MasterKeyring.layerFromConfig(resolve(dataDir)), DatabaseLive(resolve(dataDir))])))
)

launch("worker", WorkerServiceLive)
