import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"

/** How the sweeper works through tasks; every wait is a time after which a task is looked at again. */
export interface SweeperSettings {
  /** Tasks claimed at once. */
  readonly batchSize: number
  /** Tasks stepped at once within a claim. */
  readonly concurrency: number
  /** A claim runs out after this, so a dead worker's tasks go to another. Longer than any one step. */
  readonly leaseTtl: Duration.Duration
  /** Pause when no task was due. */
  readonly idleInterval: Duration.Duration
  /**
   * From the node's acceptance of a broadcast to the first look at its receipt: the receipt is
   * read from the solidified node, which cannot know it before the block the transaction lands in
   * (the next one) and the 19 after it: 20 blocks.
   */
  readonly settleDelay: Duration.Duration
  /** Between looks at a broadcast transaction's receipt. */
  readonly settleInterval: Duration.Duration
  /** Between looks at a wallet waiting for its free bandwidth to regenerate. */
  readonly bandwidthInterval: Duration.Duration
  /** Between looks at a rental order until its energy is on chain. */
  readonly rentalInterval: Duration.Duration
  /** After a node or provider failure. */
  readonly retryInterval: Duration.Duration
  /** A transaction not yet found is broadcast again (the very same bytes) this often. */
  readonly rebroadcastInterval: Duration.Duration
  /**
   * A transaction is proven unable to land once the solidified block is this much past its
   * expiration and the solidified node does not know it.
   */
  readonly expiryMargin: Duration.Duration
  /** An unsigned transaction expiring sooner than this is rebuilt before signing. */
  readonly minimumValidity: Duration.Duration
  /**
   * How long a signed transaction may wait to land, from the head block it was built on: long
   * enough to outlast a worker restart, short because an `unknown` task is resolved only after it.
   */
  readonly transactionValidity: Duration.Duration
}

export const defaultSweeperSettings: SweeperSettings = {
  batchSize: 100,
  concurrency: 8,
  leaseTtl: Duration.seconds(60),
  idleInterval: Duration.seconds(1),
  settleDelay: Duration.seconds(60),
  settleInterval: Duration.seconds(3),
  bandwidthInterval: Duration.minutes(5),
  rentalInterval: Duration.seconds(3),
  retryInterval: Duration.seconds(10),
  rebroadcastInterval: Duration.seconds(15),
  expiryMargin: Duration.seconds(60),
  minimumValidity: Duration.seconds(20),
  transactionValidity: Duration.minutes(5)
}

/** The `SWEEP_*` variables of the sweeper (docs/sweeps.md), each with the default above. */
export const sweeperSettings = {
  batchSize: Setting.declare({
    name: "SWEEP_BATCH_SIZE",
    default: defaultSweeperSettings.batchSize,
    description: "Tasks claimed at once (at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  concurrency: Setting.declare({
    name: "SWEEP_CONCURRENCY",
    default: defaultSweeperSettings.concurrency,
    description: "Tasks stepped at once within a claim (at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  leaseTtl: Setting.declare({
    name: "SWEEP_LEASE_TTL_MS",
    default: defaultSweeperSettings.leaseTtl,
    description: "A claim runs out after this (longer than any step; at least 1000)."
  }, (name) => ConfigValue.millis(name, { min: 1_000 })),
  idleInterval: Setting.declare({
    name: "SWEEP_IDLE_MS",
    default: defaultSweeperSettings.idleInterval,
    description: "Pause when nothing was due (at least 10)."
  }, (name) => ConfigValue.millis(name, { min: 10 })),
  settleDelay: Setting.declare({
    name: "SWEEP_SETTLE_DELAY_MS",
    default: defaultSweeperSettings.settleDelay,
    description: "From the node's acceptance of a broadcast to the first receipt look-up: the block the transaction lands in and the 19 that solidify it (the solidified node cannot know it sooner). Later look-ups are also skipped while the solidified block's time is not past the broadcast, up to the next re-offer."
  }, (name) => ConfigValue.millis(name, { min: 0 })),
  settleInterval: Setting.declare({
    name: "SWEEP_SETTLE_MS",
    default: defaultSweeperSettings.settleInterval,
    description: "Between receipt look-ups after that (at least 10)."
  }, (name) => ConfigValue.millis(name, { min: 10 })),
  bandwidthInterval: Setting.declare({
    name: "SWEEP_BANDWIDTH_WAIT_MS",
    default: defaultSweeperSettings.bandwidthInterval,
    description: "Between looks at a wallet waiting for bandwidth (at least 10)."
  }, (name) => ConfigValue.millis(name, { min: 10 })),
  rentalInterval: Setting.declare({
    name: "SWEEP_RENTAL_POLL_MS",
    default: defaultSweeperSettings.rentalInterval,
    description: "Between looks at a rental order (at least 10)."
  }, (name) => ConfigValue.millis(name, { min: 10 })),
  retryInterval: Setting.declare({
    name: "SWEEP_RETRY_MS",
    default: defaultSweeperSettings.retryInterval,
    description: "After a failed step (at least 10)."
  }, (name) => ConfigValue.millis(name, { min: 10 })),
  rebroadcastInterval: Setting.declare({
    name: "SWEEP_REBROADCAST_MS",
    default: defaultSweeperSettings.rebroadcastInterval,
    description: "A transaction not found yet is broadcast again this often (each offer updates `updated_at`; at least 100)."
  }, (name) => ConfigValue.millis(name, { min: 100 })),
  expiryMargin: Setting.declare({
    name: "SWEEP_EXPIRY_MARGIN_MS",
    default: defaultSweeperSettings.expiryMargin,
    description: "How far past the expiration the solidified block must be before a missing transaction is declared lost."
  }, (name) => ConfigValue.millis(name, { min: 0 })),
  minimumValidity: Setting.declare({
    name: "SWEEP_MIN_VALIDITY_MS",
    default: defaultSweeperSettings.minimumValidity,
    description: "A built transaction expiring sooner is not signed (at least 1000)."
  }, (name) => ConfigValue.millis(name, { min: 1_000 })),
  transactionValidity: Setting.declare({
    name: "SWEEP_TX_VALIDITY_MS",
    default: defaultSweeperSettings.transactionValidity,
    description: "Expiration of a signed transaction after the head block (30000 to 86000000: java-tron refuses one more than 24 h after its head)."
  }, (name) => ConfigValue.millis(name, { min: 30_000, max: 86_000_000 }))
}

export const sweeperConfig: Config.Config<SweeperSettings> = Config.all(sweeperSettings)
