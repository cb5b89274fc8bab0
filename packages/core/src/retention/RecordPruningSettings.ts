import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"

/** How the worker keeps `access_tokens` and `idempotency_records` from growing without end. */
export interface RecordPruningSettings {
  /** Pause between passes. */
  readonly interval: Duration.Duration
  /** Rows deleted per statement: one batch holds this many row locks at most. */
  readonly batchSize: number
  /** Batches per table per pass, so one pass is bounded even after a long outage. */
  readonly maxBatchesPerPass: number
  /**
   * How long an idempotency record is kept after its request; zero keeps them forever, which is
   * what the tenant contract promises by default.
   */
  readonly idempotencyRetention: Duration.Duration
}

export const defaultRecordPruningSettings: RecordPruningSettings = {
  interval: Duration.minutes(1),
  batchSize: 1000,
  maxBatchesPerPass: 10,
  idempotencyRetention: Duration.zero
}

/** `PRUNE_INTERVAL_MS`, `PRUNE_BATCH_SIZE`, `PRUNE_MAX_BATCHES`, `IDEMPOTENCY_RETENTION_HOURS` (0: forever). */
export const recordPruningSettings = {
  interval: Setting.declare({
    name: "PRUNE_INTERVAL_MS",
    default: defaultRecordPruningSettings.interval,
    description: "Pause between the worker's pruning passes (at least 1000); see [api-platform.md](api-platform.md#pruning)."
  }, (name) => ConfigValue.millis(name, { min: 1000 })),
  batchSize: Setting.declare({
    name: "PRUNE_BATCH_SIZE",
    default: defaultRecordPruningSettings.batchSize,
    description: "Rows deleted per statement (1 to 100000)."
  }, (name) => ConfigValue.integer(name, { min: 1, max: 100_000 })),
  maxBatchesPerPass: Setting.declare({
    name: "PRUNE_MAX_BATCHES",
    default: defaultRecordPruningSettings.maxBatchesPerPass,
    description: "Batches per table per pass (at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  idempotencyRetention: Setting.declare({
    name: "IDEMPOTENCY_RETENTION_HOURS",
    default: defaultRecordPruningSettings.idempotencyRetention,
    shown: `\`${Duration.toHours(defaultRecordPruningSettings.idempotencyRetention)}\``,
    description: "Hours an idempotency record is kept after its request; `0` keeps them forever, as the tenant contract promises. A retry with a `request_id` older than this runs its work again, so set it well beyond any client's retry horizon. Expired access tokens are always pruned."
  }, (name) => ConfigValue.duration(name, "hours", { min: 0 }))
}

export const recordPruningConfig: Config.Config<RecordPruningSettings> = Config.all(recordPruningSettings)
