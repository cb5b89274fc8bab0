import { Config, Option } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import type { Network } from "../Network.js"
import { defaultScannerLoopSettings, type ScannerLoopSettings } from "./ScannerLoopSettings.js"
import { defaultScannerSettings, type ScannerSettings } from "./ScannerSettings.js"

/** The scanner's settings and its loop's, described together: the integrity window depends on the blocks kept. */
export interface ScanningSettings {
  readonly scanner: ScannerSettings
  readonly loop: ScannerLoopSettings
}

export const defaultScanningSettings: ScanningSettings = { scanner: defaultScannerSettings, loop: defaultScannerLoopSettings }

/** The `SCAN_*` variables (docs/scanner.md), each with the default above. */
export const scanningConfig: Config.Config<ScanningSettings> = Config.all({
  batchBlocks: ConfigValue.integer("SCAN_BATCH_BLOCKS", { min: 1, default: defaultScannerSettings.batchBlocks }),
  // Only for a network never scanned before; later starts resume from the stored cursor.
  startBlock: Config.option(
    Config.string("SCAN_START_BLOCK").pipe(
      Config.validate({ message: "SCAN_START_BLOCK must be a block number (digits only)", validation: (text) => /^\d{1,19}$/.test(text) })
    )
  ),
  fetchConcurrency: ConfigValue.integer("SCAN_FETCH_CONCURRENCY", { min: 1, default: defaultScannerSettings.fetchConcurrency }),
  pollInterval: ConfigValue.millis("SCAN_POLL_MS", { min: 50, default: defaultScannerLoopSettings.pollInterval }),
  leaseTtl: ConfigValue.millis("SCAN_LEASE_TTL_MS", { min: 1000, default: defaultScannerLoopSettings.leaseTtl }),
  batchesPerPass: ConfigValue.integer("SCAN_BATCHES_PER_PASS", { min: 1, default: defaultScannerLoopSettings.batchesPerPass }),
  integrityInterval: ConfigValue.duration("SCAN_INTEGRITY_INTERVAL_S", "seconds", { min: 1, default: defaultScannerLoopSettings.integrityInterval }),
  integrityWindow: ConfigValue.integer("SCAN_INTEGRITY_WINDOW_BLOCKS", { min: 1, default: Number(defaultScannerLoopSettings.integrityWindow) }),
  // Reorganisation checks and integrity re-checks can only reach blocks still kept.
  retainedBlocks: ConfigValue.integer("SCAN_RETAINED_BLOCKS", { min: 20, default: Number(defaultScannerLoopSettings.retainedBlocks) }),
  failureBackoff: ConfigValue.millis("SCAN_FAILURE_BACKOFF_MS", { min: 10, default: defaultScannerLoopSettings.failureBackoff })
}).pipe(
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
export const depositMinimumConfig = (network: Network): Config.Config<bigint> =>
  ConfigValue.baseUnits(`DEPOSIT_MINIMUM_${network.toUpperCase()}`, { default: 0n })
