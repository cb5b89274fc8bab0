import { defaultSweeperSettings, type SweeperSettings } from "@collector/core"
import { Config, Duration } from "effect"
import { integerAtLeast, millisAtLeast } from "./ConfigValues"

/** Sweeper settings from the environment (`SWEEP_*`), each with a default. */
export const sweeperConfigFromEnv: Config.Config<SweeperSettings> = Config.all({
  batchSize: integerAtLeast("SWEEP_BATCH_SIZE", 1, defaultSweeperSettings.batchSize),
  concurrency: integerAtLeast("SWEEP_CONCURRENCY", 1, defaultSweeperSettings.concurrency),
  leaseTtl: millisAtLeast("SWEEP_LEASE_TTL_MS", 1_000, defaultSweeperSettings.leaseTtl),
  idleInterval: millisAtLeast("SWEEP_IDLE_MS", 10, defaultSweeperSettings.idleInterval),
  settleDelay: millisAtLeast("SWEEP_SETTLE_DELAY_MS", 0, defaultSweeperSettings.settleDelay),
  settleInterval: millisAtLeast("SWEEP_SETTLE_MS", 10, defaultSweeperSettings.settleInterval),
  bandwidthInterval: millisAtLeast("SWEEP_BANDWIDTH_WAIT_MS", 10, defaultSweeperSettings.bandwidthInterval),
  rentalInterval: millisAtLeast("SWEEP_RENTAL_POLL_MS", 10, defaultSweeperSettings.rentalInterval),
  retryInterval: millisAtLeast("SWEEP_RETRY_MS", 10, defaultSweeperSettings.retryInterval),
  rebroadcastInterval: millisAtLeast("SWEEP_REBROADCAST_MS", 100, defaultSweeperSettings.rebroadcastInterval),
  expiryMargin: millisAtLeast("SWEEP_EXPIRY_MARGIN_MS", 0, defaultSweeperSettings.expiryMargin),
  minimumValidity: millisAtLeast("SWEEP_MIN_VALIDITY_MS", 1_000, defaultSweeperSettings.minimumValidity),
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
