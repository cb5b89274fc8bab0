import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"

export interface ReadinessSettings {
  /** Most blocks the stored cursor may be behind the node's head for a network to be ready. */
  readonly maxScanLagBlocks: number
  /** Longest a loop of this process (notifier, sweeper) may go without reporting and still count as alive. */
  readonly maxHeartbeatAge: Duration.Duration
  /** How long each check (the database, each node, each stored cursor) may take before it counts as failed. */
  readonly checkTimeout: Duration.Duration
}

/**
 * 60 blocks is three minutes of TRON blocks: a scanner that keeps up is 0 to 2 blocks behind, and
 * one catching up after a restart stores hundreds of blocks a minute. 60 s of silence is what the
 * dashboard calls stale (the notifier reports every 5 s, the sweeper about every 10 s). 3 s per
 * check keeps a probe's answer within a usual probe timeout while a distant node answers.
 */
export const defaultReadinessSettings: ReadinessSettings = {
  maxScanLagBlocks: 60,
  maxHeartbeatAge: Duration.seconds(60),
  checkTimeout: Duration.seconds(3)
}

/** `READY_MAX_SCAN_LAG_BLOCKS`, `READY_MAX_HEARTBEAT_AGE_MS`, `READY_CHECK_TIMEOUT_MS`. */
export const readinessSettings = {
  maxScanLagBlocks: Setting.declare({
    name: "READY_MAX_SCAN_LAG_BLOCKS",
    default: defaultReadinessSettings.maxScanLagBlocks,
    description: "`/readyz` of a worker: most blocks the stored scan may be behind the node's head, per network (at least 0). 60 is three minutes of TRON blocks."
  }, (name) => ConfigValue.integer(name, { min: 0, unit: "blocks" })),
  maxHeartbeatAge: Setting.declare({
    name: "READY_MAX_HEARTBEAT_AGE_MS",
    default: defaultReadinessSettings.maxHeartbeatAge,
    description:
      "`/readyz` of a worker: longest this process's notifier or sweeper may go without reporting (at least 1000); keep it well above `NOTIFIER_STATUS_MS` and the sweeper's 10 s."
  }, (name) => ConfigValue.millis(name, { min: 1000 })),
  checkTimeout: Setting.declare({
    name: "READY_CHECK_TIMEOUT_MS",
    default: defaultReadinessSettings.checkTimeout,
    description: "How long each check of `/readyz` (the database, each node, each stored cursor) may take before it counts as failed (100 to 60000)."
  }, (name) => ConfigValue.millis(name, { min: 100, max: 60_000 }))
}

export const readinessConfig: Config.Config<ReadinessSettings> = Config.all(readinessSettings)
