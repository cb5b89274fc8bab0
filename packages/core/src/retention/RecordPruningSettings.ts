import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"

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
export const recordPruningConfig: Config.Config<RecordPruningSettings> = Config.all({
  interval: ConfigValue.millis("PRUNE_INTERVAL_MS", { min: 1000, default: defaultRecordPruningSettings.interval }),
  batchSize: ConfigValue.integer("PRUNE_BATCH_SIZE", { min: 1, max: 100_000, default: defaultRecordPruningSettings.batchSize }),
  maxBatchesPerPass: ConfigValue.integer("PRUNE_MAX_BATCHES", { min: 1, default: defaultRecordPruningSettings.maxBatchesPerPass }),
  idempotencyRetention: ConfigValue.duration("IDEMPOTENCY_RETENTION_HOURS", "hours", {
    min: 0,
    default: defaultRecordPruningSettings.idempotencyRetention
  })
})
