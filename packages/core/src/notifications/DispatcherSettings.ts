import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import type { Checkpoint } from "../engine/Checkpoint.js"

export interface DispatcherSettings {
  /** How often `run` looks for due events when the last claim did not fill its capacity. */
  readonly pollInterval: Duration.Duration
  /**
   * How long a claim lasts. It must outlast one whole attempt (name resolution plus the
   * 10 s response window): an attempt still running when its claim runs out is closed as
   * interrupted (or withdrawn, if its request never went out) by whichever dispatcher takes the
   * event over.
   */
  readonly claimLease: Duration.Duration
  /** Attempts one dispatcher runs at once for one network. */
  readonly maxInFlight: number
  /**
   * Events of one tenant this dispatcher holds at once, so a tenant with a large backlog or a
   * slow endpoint only ever occupies this many of its slots.
   */
  readonly perTenant: number
  /** How often the notifier's backlog is reported for the dashboard. */
  readonly statusInterval: Duration.Duration
  /**
   * Most attempt outcomes written in one statement. Outcomes finished while a write is under way
   * wait for the next one (group commit), so a busy dispatcher writes many per statement and an
   * idle one writes each at once.
   */
  readonly outcomeBatch?: number
  /** How long the outcome writer waits before writing again after a write failed. */
  readonly outcomeRetry?: Duration.Duration
  /**
   * Called with `delivery:claimed` once a claim has started attempts, before any is marked
   * sending. Production passes nothing; the crash tests kill the process there.
   */
  readonly checkpoint?: Checkpoint
}

export const defaultDispatcherSettings: DispatcherSettings = {
  pollInterval: Duration.millis(250),
  claimLease: Duration.seconds(60),
  maxInFlight: 64,
  perTenant: 8,
  statusInterval: Duration.seconds(5),
  outcomeBatch: 256,
  outcomeRetry: Duration.millis(500)
}

/** The shortest claim lease accepted: the 10 s response window plus the 5 s lookup timeout and a margin. */
export const minimumClaimLease: Duration.Duration = Duration.seconds(16)

/** The `NOTIFIER_*` variables (docs/configuration.md), each with the default above. */
export const dispatcherConfig: Config.Config<DispatcherSettings> = Config.all({
  pollInterval: ConfigValue.millis("NOTIFIER_POLL_MS", { min: Duration.toMillis(Duration.millis(10)), default: defaultDispatcherSettings.pollInterval }),
  claimLease: ConfigValue.millis("NOTIFIER_CLAIM_LEASE_MS", { min: Duration.toMillis(minimumClaimLease), default: defaultDispatcherSettings.claimLease }),
  maxInFlight: ConfigValue.integer("NOTIFIER_MAX_IN_FLIGHT", { min: 1, max: 4096, default: defaultDispatcherSettings.maxInFlight }),
  perTenant: ConfigValue.integer("NOTIFIER_PER_TENANT", { min: 1, max: 4096, default: defaultDispatcherSettings.perTenant }),
  statusInterval: ConfigValue.millis("NOTIFIER_STATUS_MS", { min: Duration.toMillis(Duration.millis(100)), default: defaultDispatcherSettings.statusInterval }),
  outcomeBatch: ConfigValue.integer("NOTIFIER_OUTCOME_BATCH", { min: 1, max: 4096, default: defaultDispatcherSettings.outcomeBatch! }),
  outcomeRetry: ConfigValue.millis("NOTIFIER_OUTCOME_RETRY_MS", { min: Duration.toMillis(Duration.millis(10)), default: defaultDispatcherSettings.outcomeRetry! })
})
