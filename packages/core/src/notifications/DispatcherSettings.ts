import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"
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
export const dispatcherSettings = {
  pollInterval: Setting.declare({
    name: "NOTIFIER_POLL_MS",
    default: defaultDispatcherSettings.pollInterval,
    description:
      "How often a worker looks for due events when its last claim did not fill its capacity (at least 10). Deposits this worker's scanner books are delivered at once, without waiting for the poll; the poll finds events written elsewhere (another worker, redeliveries asked through the API, retries that fall due)."
  }, (name) => ConfigValue.millis(name, { min: 10 })),
  maxInFlight: Setting.declare({
    name: "NOTIFIER_MAX_IN_FLIGHT",
    default: defaultDispatcherSettings.maxInFlight,
    description: "Attempts one worker runs at once per network (1 to 4096)."
  }, (name) => ConfigValue.integer(name, { min: 1, max: 4096 })),
  perTenant: Setting.declare({
    name: "NOTIFIER_PER_TENANT",
    default: defaultDispatcherSettings.perTenant,
    description:
      "Events of one tenant in flight at once in **one** worker's notifier for a network (1 to 4096), so one tenant's backlog or slow endpoint never takes the slots other tenants need; with several workers a tenant may have this many in flight in each."
  }, (name) => ConfigValue.integer(name, { min: 1, max: 4096 })),
  claimLease: Setting.declare({
    name: "NOTIFIER_CLAIM_LEASE_MS",
    default: defaultDispatcherSettings.claimLease,
    description:
      `How long a worker's claim on an event lasts (at least ${Duration.toMillis(minimumClaimLease)}: the 10 s response window plus the 5 s lookup timeout and a margin). After a worker dies, its events wait this long before another worker takes them over: an open attempt whose request was never sent is withdrawn (not counted, sent again at once), one that may have been sent is closed as \`interrupted\` ([notifications.md](notifications.md#delivery)).`
  }, (name) => ConfigValue.millis(name, { min: Duration.toMillis(minimumClaimLease) })),
  statusInterval: Setting.declare({
    name: "NOTIFIER_STATUS_MS",
    default: defaultDispatcherSettings.statusInterval,
    description: "How often the notifier reports its backlog to the dashboard's `engine` (at least 100)."
  }, (name) => ConfigValue.millis(name, { min: 100 })),
  outcomeBatch: Setting.declare({
    name: "NOTIFIER_OUTCOME_BATCH",
    default: defaultDispatcherSettings.outcomeBatch!,
    description: "Most attempt outcomes written in one statement (1 to 4096); those finishing while a write runs go in the next one."
  }, (name) => ConfigValue.integer(name, { min: 1, max: 4096 })),
  outcomeRetry: Setting.declare({
    name: "NOTIFIER_OUTCOME_RETRY_MS",
    default: defaultDispatcherSettings.outcomeRetry!,
    description: "Pause before a failed outcome write is tried again with the same outcomes (at least 10)."
  }, (name) => ConfigValue.millis(name, { min: 10 }))
}

export const dispatcherConfig: Config.Config<DispatcherSettings> = Config.all(dispatcherSettings)
