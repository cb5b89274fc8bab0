import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"

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
export const sweeperConfig: Config.Config<SweeperSettings> = Config.all({
  batchSize: ConfigValue.integer("SWEEP_BATCH_SIZE", { min: 1 }).pipe(Config.withDefault(defaultSweeperSettings.batchSize)),
  concurrency: ConfigValue.integer("SWEEP_CONCURRENCY", { min: 1 }).pipe(Config.withDefault(defaultSweeperSettings.concurrency)),
  leaseTtl: ConfigValue.millis("SWEEP_LEASE_TTL_MS", { min: 1_000, default: defaultSweeperSettings.leaseTtl }),
  idleInterval: ConfigValue.millis("SWEEP_IDLE_MS", { min: 10, default: defaultSweeperSettings.idleInterval }),
  settleDelay: ConfigValue.millis("SWEEP_SETTLE_DELAY_MS", { min: 0, default: defaultSweeperSettings.settleDelay }),
  settleInterval: ConfigValue.millis("SWEEP_SETTLE_MS", { min: 10, default: defaultSweeperSettings.settleInterval }),
  bandwidthInterval: ConfigValue.millis("SWEEP_BANDWIDTH_WAIT_MS", { min: 10, default: defaultSweeperSettings.bandwidthInterval }),
  rentalInterval: ConfigValue.millis("SWEEP_RENTAL_POLL_MS", { min: 10, default: defaultSweeperSettings.rentalInterval }),
  retryInterval: ConfigValue.millis("SWEEP_RETRY_MS", { min: 10, default: defaultSweeperSettings.retryInterval }),
  rebroadcastInterval: ConfigValue.millis("SWEEP_REBROADCAST_MS", { min: 100, default: defaultSweeperSettings.rebroadcastInterval }),
  expiryMargin: ConfigValue.millis("SWEEP_EXPIRY_MARGIN_MS", { min: 0, default: defaultSweeperSettings.expiryMargin }),
  minimumValidity: ConfigValue.millis("SWEEP_MIN_VALIDITY_MS", { min: 1_000, default: defaultSweeperSettings.minimumValidity }),
  // java-tron refuses an expiration more than 24 h after its head.
  transactionValidity: ConfigValue.millis("SWEEP_TX_VALIDITY_MS", { min: 30_000, max: 86_000_000 }).pipe(
    Config.withDefault(defaultSweeperSettings.transactionValidity)
  )
})
