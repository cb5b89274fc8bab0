import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"

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
export const reclaimConfig: Config.Config<ReclaimSettings> = Config.all({
  interval: ConfigValue.millis("RECLAIM_INTERVAL_MS", { min: 100, default: defaultReclaimSettings.interval }),
  batchSize: ConfigValue.integer("RECLAIM_BATCH_SIZE", { min: 1 }).pipe(Config.withDefault(defaultReclaimSettings.batchSize))
})
