import { DatabaseAtUrl } from "@collector/postgres"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import type { SimConfig } from "@collector/tron-sim"
import { startSimNode } from "@collector/tron-sim/testing"
import { Context, Effect, Layer, Redacted } from "effect"
import { Sim } from "./EngineWorld.js"

/** The fresh database's URL, for worker processes started by the test. */
export class DatabaseUrl extends Context.Tag("test/DatabaseUrl")<DatabaseUrl, string>() {}

/** A fresh database and a simulated node (manual blocks, `chain` over its defaults) that worker processes can reach. */
export const processWorld = (chain: Partial<SimConfig> = {}) => Layer.unwrapScoped(
  Effect.gen(function*() {
    const { url } = yield* freshDatabaseUrl
    const sim = yield* startSimNode(chain)
    return Layer.mergeAll(DatabaseAtUrl(url), Layer.succeed(Sim, sim), Layer.succeed(DatabaseUrl, Redacted.value(url)))
  })
)

export const ProcessWorld = processWorld()
