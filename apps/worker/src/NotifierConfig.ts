import { type DispatcherSettings, defaultDispatcherSettings, minimumClaimLease } from "@collector/core"
import { Config, Duration } from "effect"

const millis = (name: string, fallback: Duration.Duration, min: Duration.Duration) =>
  Config.integer(name).pipe(
    Config.validate({
      message: `${name} must be a whole number of milliseconds of at least ${Duration.toMillis(min)}`,
      validation: (n) => n >= Duration.toMillis(min)
    }),
    Config.map(Duration.millis),
    Config.withDefault(fallback)
  )

const count = (name: string, fallback: number, max: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be a whole number from 1 to ${max}`, validation: (n) => n >= 1 && n <= max }),
    Config.withDefault(fallback)
  )

/** The dispatcher's settings from NOTIFIER_* variables (docs/configuration.md). */
export const notifierConfigFromEnv: Config.Config<DispatcherSettings> = Config.all({
  pollInterval: millis("NOTIFIER_POLL_MS", defaultDispatcherSettings.pollInterval, Duration.millis(10)),
  claimLease: millis("NOTIFIER_CLAIM_LEASE_MS", defaultDispatcherSettings.claimLease, minimumClaimLease),
  maxInFlight: count("NOTIFIER_MAX_IN_FLIGHT", defaultDispatcherSettings.maxInFlight, 4096),
  perTenant: count("NOTIFIER_PER_TENANT", defaultDispatcherSettings.perTenant, 4096),
  statusInterval: millis("NOTIFIER_STATUS_MS", defaultDispatcherSettings.statusInterval, Duration.millis(100)),
  outcomeBatch: count("NOTIFIER_OUTCOME_BATCH", defaultDispatcherSettings.outcomeBatch ?? 256, 4096),
  outcomeRetry: millis("NOTIFIER_OUTCOME_RETRY_MS", defaultDispatcherSettings.outcomeRetry ?? Duration.millis(500), Duration.millis(10))
})
