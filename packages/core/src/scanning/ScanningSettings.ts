import { Config, Duration, Option } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"
import type { Network } from "../kernel/Network.js"
import { defaultScannerLoopSettings, type ScannerLoopSettings } from "./ScannerLoopSettings.js"
import { defaultScannerSettings, type ScannerSettings } from "./ScannerSettings.js"

/** The scanner's settings and its loop's, described together: the integrity window depends on the blocks kept. */
export interface ScanningSettings {
  readonly scanner: ScannerSettings
  readonly loop: ScannerLoopSettings
}

export const defaultScanningSettings: ScanningSettings = { scanner: defaultScannerSettings, loop: defaultScannerLoopSettings }

/** The `SCAN_*` variables (docs/scanner.md), each with the default above. */
export const scanningSettings = {
  batchBlocks: Setting.declare({ name: "SCAN_BATCH_BLOCKS", default: defaultScannerSettings.batchBlocks, description: "Blocks per storing transaction (at least 1)." }, (name) =>
    ConfigValue.integer(name, { min: 1 })),
  fetchConcurrency: Setting.declare({
    name: "SCAN_FETCH_CONCURRENCY",
    default: defaultScannerSettings.fetchConcurrency,
    description: "Blocks fetched at once (two node calls each; at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  pollInterval: Setting.declare({
    name: "SCAN_POLL_MS",
    default: defaultScannerLoopSettings.pollInterval,
    description:
      "At the head, how often the node's head number is read (one light call, no statements; at least 50); a pass runs when it moves, and at least every third of `SCAN_LEASE_TTL_MS`."
  }, (name) => ConfigValue.millis(name, { min: 50 })),
  leaseTtl: Setting.declare({
    name: "SCAN_LEASE_TTL_MS",
    default: defaultScannerLoopSettings.leaseTtl,
    description: "A dead scanner's lease runs out after this (at least 1000)."
  }, (name) => ConfigValue.millis(name, { min: 1000 })),
  batchesPerPass: Setting.declare({
    name: "SCAN_BATCHES_PER_PASS",
    default: defaultScannerLoopSettings.batchesPerPass,
    description: "Batches before confirmations and the heartbeat run again (at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  integrityInterval: Setting.declare({
    name: "SCAN_INTEGRITY_INTERVAL_S",
    default: defaultScannerLoopSettings.integrityInterval,
    shown: `\`${Duration.toSeconds(defaultScannerLoopSettings.integrityInterval)}\``,
    description: "How often, in seconds, recent blocks are re-checked (at least 1)."
  }, (name) => ConfigValue.duration(name, "seconds", { min: 1 })),
  integrityWindow: Setting.declare({
    name: "SCAN_INTEGRITY_WINDOW_BLOCKS",
    default: Number(defaultScannerLoopSettings.integrityWindow),
    description: "How many recent blocks are re-checked (at least 1; at most `SCAN_RETAINED_BLOCKS` are)."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  // Reorganisation checks and integrity re-checks can only reach blocks still kept.
  retainedBlocks: Setting.declare({
    name: "SCAN_RETAINED_BLOCKS",
    default: Number(defaultScannerLoopSettings.retainedBlocks),
    description: "Stored blocks kept below the solidified block (at least 20)."
  }, (name) => ConfigValue.integer(name, { min: 20 })),
  failureBackoff: Setting.declare({
    name: "SCAN_FAILURE_BACKOFF_MS",
    default: defaultScannerLoopSettings.failureBackoff,
    description: "Pause after a failed pass (at least 10)."
  }, (name) => ConfigValue.millis(name, { min: 10 })),
  // Only for a network never scanned before; later starts resume from the stored cursor.
  startBlock: Setting.declare({
    name: "SCAN_START_BLOCK",
    shown: "the solidified block",
    description: "First block of a network never scanned before (digits); later starts resume from the stored cursor."
  }, (name) =>
    Config.option(
      Config.string(name).pipe(
        Config.validate({ message: `${name} must be a block number (digits only)`, validation: (text) => /^\d{1,19}$/.test(text) })
      )
    ))
}

export const scanningConfig: Config.Config<ScanningSettings> = Config.all(scanningSettings).pipe(
  Config.map(({ batchBlocks, fetchConcurrency, integrityWindow, retainedBlocks, startBlock, ...loop }) => ({
    scanner: {
      batchBlocks,
      fetchConcurrency,
      ...Option.match(startBlock, { onNone: () => ({}), onSome: (text) => ({ startBlock: BigInt(text) }) })
    },
    loop: {
      ...loop,
      integrityWindow: BigInt(Math.min(integrityWindow, retainedBlocks)),
      retainedBlocks: BigInt(retainedBlocks)
    }
  }))
)

/**
 * `DEPOSIT_MINIMUM_<NETWORK>` (`DEPOSIT_MINIMUM_MAIN`, `DEPOSIT_MINIMUM_NILE`): the smallest transfer
 * booked as a deposit on that network for tenants without a minimum of their own, in base units;
 * default 0 (every transfer above 0; one of 0 never is a deposit).
 */
export const depositMinimumConfig = (network: Network): Setting.Setting<bigint> =>
  Setting.declare({
    name: `DEPOSIT_MINIMUM_${network.toUpperCase()}`,
    default: 0n,
    description:
      "The smallest transfer booked as a deposit on that network, in base units (`10000` is 0.01 USDT), for tenants without a minimum of their own (`cli tenant set-deposit-minimum`). A transfer of 0 is never a deposit, whatever this says ([scanner.md](scanner.md#following-the-chain))."
  }, (name) => ConfigValue.baseUnits(name))
