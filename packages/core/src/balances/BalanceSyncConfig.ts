import { Config, Context, Duration, Layer } from "effect"

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
const defaults: BalanceSyncSettings = {
  walletsPerSecond: 1.2,
  batchSize: 24,
  concurrency: 4,
  backoff: Duration.seconds(5),
  maxBackoff: Duration.minutes(5)
}

const integerBetween = (name: string, min: number, max: number, fallback: number, unit = "") =>
  Config.integer(name).pipe(
    Config.validate({
      message: `${name} must be an integer from ${min} to ${max}${unit}`,
      validation: (n) => n >= min && n <= max
    }),
    Config.withDefault(fallback)
  )

/**
 * `BALANCE_SYNC_WALLETS_PER_SECOND`, `BALANCE_SYNC_BATCH`, `BALANCE_SYNC_CONCURRENCY`,
 * `BALANCE_SYNC_BACKOFF_MS`, `BALANCE_SYNC_MAX_BACKOFF_MS`; each defaults as above.
 */
export const balanceSyncConfigFromEnv: Config.Config<BalanceSyncSettings> = Config.all({
  walletsPerSecond: Config.number("BALANCE_SYNC_WALLETS_PER_SECOND").pipe(
    Config.validate({
      message: "BALANCE_SYNC_WALLETS_PER_SECOND must be a number greater than 0 and at most 1000 (e.g. 1.2)",
      validation: (n) => Number.isFinite(n) && n > 0 && n <= 1000
    }),
    Config.withDefault(defaults.walletsPerSecond)
  ),
  batchSize: integerBetween("BALANCE_SYNC_BATCH", 1, 1000, defaults.batchSize, " (wallets per batch)"),
  concurrency: integerBetween("BALANCE_SYNC_CONCURRENCY", 1, 64, defaults.concurrency),
  backoffMs: integerBetween("BALANCE_SYNC_BACKOFF_MS", 1, 3_600_000, Duration.toMillis(defaults.backoff), " (milliseconds)"),
  maxBackoffMs: integerBetween("BALANCE_SYNC_MAX_BACKOFF_MS", 1, 86_400_000, Duration.toMillis(defaults.maxBackoff), " (milliseconds)")
}).pipe(
  Config.validate({
    message: "BALANCE_SYNC_MAX_BACKOFF_MS must not be below BALANCE_SYNC_BACKOFF_MS",
    validation: ({ backoffMs, maxBackoffMs }) => maxBackoffMs >= backoffMs
  }),
  Config.map(({ backoffMs, maxBackoffMs, ...rest }) => ({
    ...rest,
    backoff: Duration.millis(backoffMs),
    maxBackoff: Duration.millis(maxBackoffMs)
  }))
)

/** How fast balance sync reads the node; the worker app provides `layerFromEnv`. */
export class BalanceSyncConfig extends Context.Tag("@collector/core/BalanceSyncConfig")<BalanceSyncConfig, BalanceSyncSettings>() {
  static readonly defaults = defaults
  static readonly layer = (overrides: Partial<BalanceSyncSettings> = {}) =>
    Layer.succeed(BalanceSyncConfig, { ...defaults, ...overrides })
  static readonly layerFromEnv = Layer.effect(BalanceSyncConfig, balanceSyncConfigFromEnv)
}
