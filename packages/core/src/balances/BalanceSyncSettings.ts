import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"

export interface BalanceSyncSettings {
  /** Sustained wallets read per second, per network. */
  readonly walletsPerSecond: number
  /** Wallets read and written together (one `due` query, one `record` statement). */
  readonly batchSize: number
  /** Wallets of a batch read from the node at once. */
  readonly concurrency: number
  /** Pause after a batch with failures; doubles with each further failing batch. */
  readonly backoff: Duration.Duration
  readonly maxBackoff: Duration.Duration
}

/**
 * The node budget arithmetic behind the defaults. The adapter allows 10 requests a second per
 * node (`TRON_REQUESTS_PER_SECOND`); `Chain.account` costs 4 of them (the solidified block,
 * `getaccount`, `getaccountresource`, `balanceOf`) and each batch adds one `solidifiedBlock`.
 * 1.2 wallets a second in batches of 24 is one batch every 20 s of 24 × 4 + 1 = 97 requests,
 * 4.85 requests a second: under half the budget, leaving the rest to the scanner and sweeps.
 * At that pace a full rotation of a million wallets takes about 9.6 days; wallets touched by
 * deposits and new wallets go first, so the rotation only catches changes made outside the service.
 */
export const defaultBalanceSyncSettings: BalanceSyncSettings = {
  walletsPerSecond: 1.2,
  batchSize: 24,
  concurrency: 4,
  backoff: Duration.seconds(5),
  maxBackoff: Duration.minutes(5)
}

/**
 * `BALANCE_SYNC_WALLETS_PER_SECOND`, `BALANCE_SYNC_BATCH`, `BALANCE_SYNC_CONCURRENCY`,
 * `BALANCE_SYNC_BACKOFF_MS`, `BALANCE_SYNC_MAX_BACKOFF_MS`; each defaults as above.
 */
export const balanceSyncSettings = {
  walletsPerSecond: Setting.declare({
    name: "BALANCE_SYNC_WALLETS_PER_SECOND",
    default: defaultBalanceSyncSettings.walletsPerSecond,
    description: "Sustained wallets read per second per network (4 node requests each: about half of `TRON_REQUESTS_PER_SECOND` at the defaults; above 0, at most 1000)."
  }, (name) => ConfigValue.positiveNumber(name, 1000)),
  batchSize: Setting.declare({
    name: "BALANCE_SYNC_BATCH",
    default: defaultBalanceSyncSettings.batchSize,
    description: "Wallets per batch (1 to 1000)."
  }, (name) => ConfigValue.integer(name, { min: 1, max: 1000, unit: "wallets per batch" })),
  concurrency: Setting.declare({
    name: "BALANCE_SYNC_CONCURRENCY",
    default: defaultBalanceSyncSettings.concurrency,
    description: "Wallets of a batch read at once (1 to 64)."
  }, (name) => ConfigValue.integer(name, { min: 1, max: 64 })),
  backoff: Setting.declare({
    name: "BALANCE_SYNC_BACKOFF_MS",
    default: defaultBalanceSyncSettings.backoff,
    description: "Extra pause after a batch with a failure; doubles per further failing batch (1 to 3600000)."
  }, (name) => ConfigValue.millis(name, { min: 1, max: 3_600_000 })),
  maxBackoff: Setting.declare({
    name: "BALANCE_SYNC_MAX_BACKOFF_MS",
    default: defaultBalanceSyncSettings.maxBackoff,
    description: "Ceiling of that pause (1 to 86400000; not below `BALANCE_SYNC_BACKOFF_MS`)."
  }, (name) => ConfigValue.millis(name, { min: 1, max: 86_400_000 }))
}

export const balanceSyncConfig: Config.Config<BalanceSyncSettings> = Config.all(balanceSyncSettings).pipe(
  Config.validate({
    message: "BALANCE_SYNC_MAX_BACKOFF_MS must not be below BALANCE_SYNC_BACKOFF_MS",
    validation: ({ backoff, maxBackoff }) => Duration.greaterThanOrEqualTo(maxBackoff, backoff)
  })
)
