import { Config, Duration, Option } from "effect"
import * as ConfigValue from "../config/ConfigValue"
import { defaultScannerLoopSettings, type ScannerLoopSettings } from "./ScannerLoopSettings"
import { defaultScannerSettings, type ScannerSettings } from "./ScannerSettings"

/** The scanner's settings and its loop's, described together: the integrity window depends on the blocks kept. */
export interface ScanningSettings {
  readonly scanner: ScannerSettings
  readonly loop: ScannerLoopSettings
}

export const defaultScanningSettings: ScanningSettings = { scanner: defaultScannerSettings, loop: defaultScannerLoopSettings }

const atLeast = (name: string, min: number, fallback: number) => ConfigValue.integer(name, { min }).pipe(Config.withDefault(fallback))

const millisAtLeast = (name: string, min: number, fallback: Duration.Duration) => ConfigValue.millis(name, { min }).pipe(Config.withDefault(fallback))

/** The `SCAN_*` variables (docs/scanner.md), each with the default above. */
export const scanningConfig: Config.Config<ScanningSettings> = Config.all({
  batchBlocks: atLeast("SCAN_BATCH_BLOCKS", 1, defaultScannerSettings.batchBlocks),
  // Only for a network never scanned before; later starts resume from the stored cursor.
  startBlock: Config.option(
    Config.string("SCAN_START_BLOCK").pipe(
      Config.validate({ message: "SCAN_START_BLOCK must be a block number (digits only)", validation: (text) => /^\d{1,19}$/.test(text) })
    )
  ),
  fetchConcurrency: atLeast("SCAN_FETCH_CONCURRENCY", 1, defaultScannerSettings.fetchConcurrency),
  pollInterval: millisAtLeast("SCAN_POLL_MS", 50, defaultScannerLoopSettings.pollInterval),
  leaseTtl: millisAtLeast("SCAN_LEASE_TTL_MS", 1000, defaultScannerLoopSettings.leaseTtl),
  batchesPerPass: atLeast("SCAN_BATCHES_PER_PASS", 1, defaultScannerLoopSettings.batchesPerPass),
  integrityInterval: ConfigValue.duration("SCAN_INTEGRITY_INTERVAL_S", "seconds", { min: 1 }).pipe(
    Config.withDefault(defaultScannerLoopSettings.integrityInterval)
  ),
  integrityWindow: atLeast("SCAN_INTEGRITY_WINDOW_BLOCKS", 1, Number(defaultScannerLoopSettings.integrityWindow)),
  // Reorganisation checks and integrity re-checks can only reach blocks still kept.
  retainedBlocks: atLeast("SCAN_RETAINED_BLOCKS", 20, Number(defaultScannerLoopSettings.retainedBlocks)),
  failureBackoff: millisAtLeast("SCAN_FAILURE_BACKOFF_MS", 10, defaultScannerLoopSettings.failureBackoff)
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
