import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"

/** How often the engine takes back the energy lent to finished sweeps. */
export interface ReclaimSettings {
  /** Between reclaim passes (one also runs at start). */
  readonly interval: Duration.Duration
  /** Open delegations looked at in one pass, oldest first. */
  readonly batchSize: number
}

export const defaultReclaimSettings: ReclaimSettings = {
  interval: Duration.seconds(30),
  batchSize: 100
}

/** `RECLAIM_INTERVAL_MS` and `RECLAIM_BATCH_SIZE` (docs/sweeps.md), each with the default above. */
export const reclaimSettings = {
  interval: Setting.declare({
    name: "RECLAIM_INTERVAL_MS",
    default: defaultReclaimSettings.interval,
    description: "Between the engine's passes taking back energy lent from the own stake to finished sweeps (at least 100; one pass also runs at start). A reclaim that fails is retried on the next pass until the stake is back."
  }, (name) => ConfigValue.millis(name, { min: 100 })),
  batchSize: Setting.declare({
    name: "RECLAIM_BATCH_SIZE",
    default: defaultReclaimSettings.batchSize,
    description: "Open delegations looked at per resource account in one pass, oldest first (at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 }))
}

export const reclaimConfig: Config.Config<ReclaimSettings> = Config.all(reclaimSettings)
