import { defaultSweeperSettings, type SweeperSettings } from "@collector/core"
import { Config, Duration } from "effect"

const integerAtLeast = (name: string, minimum: number, fallback: number, unit = "") =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be an integer of at least ${minimum}${unit}`, validation: (n) => n >= minimum }),
    Config.withDefault(fallback)
  )

const millis = (name: string, minimum: number, fallback: Duration.Duration) =>
  Config.map(integerAtLeast(name, minimum, Duration.toMillis(fallback), " (milliseconds)"), Duration.millis)

/** Sweeper settings from the environment (`SWEEP_*`), each with a default. */
export const sweeperConfigFromEnv: Config.Config<SweeperSettings> = Config.all({
  batchSize: integerAtLeast("SWEEP_BATCH_SIZE", 1, defaultSweeperSettings.batchSize),
  concurrency: integerAtLeast("SWEEP_CONCURRENCY", 1, defaultSweeperSettings.concurrency),
  leaseTtl: millis("SWEEP_LEASE_TTL_MS", 1_000, defaultSweeperSettings.leaseTtl),
  idleInterval: millis("SWEEP_IDLE_MS", 10, defaultSweeperSettings.idleInterval),
  settleDelay: millis("SWEEP_SETTLE_DELAY_MS", 0, defaultSweeperSettings.settleDelay),
  settleInterval: millis("SWEEP_SETTLE_MS", 10, defaultSweeperSettings.settleInterval),
  bandwidthInterval: millis("SWEEP_BANDWIDTH_WAIT_MS", 10, defaultSweeperSettings.bandwidthInterval),
  rentalInterval: millis("SWEEP_RENTAL_POLL_MS", 10, defaultSweeperSettings.rentalInterval),
  retryInterval: millis("SWEEP_RETRY_MS", 10, defaultSweeperSettings.retryInterval),
  rebroadcastInterval: millis("SWEEP_REBROADCAST_MS", 100, defaultSweeperSettings.rebroadcastInterval),
  expiryMargin: millis("SWEEP_EXPIRY_MARGIN_MS", 0, defaultSweeperSettings.expiryMargin),
  minimumValidity: millis("SWEEP_MIN_VALIDITY_MS", 1_000, defaultSweeperSettings.minimumValidity),
  transactionValidity: Config.map(
    Config.integer("SWEEP_TX_VALIDITY_MS").pipe(
      Config.validate({
        // java-tron refuses an expiration more than 24 h after its head.
        message: "SWEEP_TX_VALIDITY_MS must be an integer from 30000 to 86000000 (milliseconds)",
        validation: (n) => n >= 30_000 && n <= 86_000_000
      }),
      Config.withDefault(Duration.toMillis(defaultSweeperSettings.transactionValidity))
    ),
    Duration.millis
  )
})
