import { defaultScannerLoopSettings, defaultScannerSettings, type ScannerLoopSettings, type ScannerSettings } from "@collector/core"
import { Config, Duration, Option } from "effect"
import { integerAtLeast } from "./ConfigValues"

/** Scanner settings from the environment (`SCAN_*`), each with a default. */
export const scannerConfigFromEnv: Config.Config<{ readonly scanner: ScannerSettings; readonly loop: ScannerLoopSettings }> = Config.all({
  batchBlocks: integerAtLeast("SCAN_BATCH_BLOCKS", 1, defaultScannerSettings.batchBlocks),
  // Only for a network never scanned before; later starts resume from the stored cursor.
  startBlock: Config.option(
    Config.string("SCAN_START_BLOCK").pipe(
      Config.validate({ message: "SCAN_START_BLOCK must be a block number (digits only)", validation: (text) => /^\d{1,19}$/.test(text) })
    )
  ),
  fetchConcurrency: integerAtLeast("SCAN_FETCH_CONCURRENCY", 1, defaultScannerSettings.fetchConcurrency),
  pollMs: integerAtLeast("SCAN_POLL_MS", 50, Duration.toMillis(defaultScannerLoopSettings.pollInterval), " (milliseconds)"),
  leaseTtlMs: integerAtLeast("SCAN_LEASE_TTL_MS", 1000, Duration.toMillis(defaultScannerLoopSettings.leaseTtl), " (milliseconds)"),
  batchesPerPass: integerAtLeast("SCAN_BATCHES_PER_PASS", 1, defaultScannerLoopSettings.batchesPerPass),
  integrityIntervalS: integerAtLeast(
    "SCAN_INTEGRITY_INTERVAL_S",
    1,
    Duration.toSeconds(defaultScannerLoopSettings.integrityInterval),
    " (seconds)"
  ),
  integrityWindow: integerAtLeast("SCAN_INTEGRITY_WINDOW_BLOCKS", 1, Number(defaultScannerLoopSettings.integrityWindow)),
  // Reorganisation checks and integrity re-checks can only reach blocks still kept.
  retainedBlocks: integerAtLeast("SCAN_RETAINED_BLOCKS", 20, Number(defaultScannerLoopSettings.retainedBlocks)),
  failureBackoffMs: integerAtLeast("SCAN_FAILURE_BACKOFF_MS", 10, Duration.toMillis(defaultScannerLoopSettings.failureBackoff), " (milliseconds)")
}).pipe(
  Config.map((c) => ({
    scanner: {
      batchBlocks: c.batchBlocks,
      fetchConcurrency: c.fetchConcurrency,
      ...Option.match(c.startBlock, { onNone: () => ({}), onSome: (text) => ({ startBlock: BigInt(text) }) })
    },
    loop: {
      pollInterval: Duration.millis(c.pollMs),
      leaseTtl: Duration.millis(c.leaseTtlMs),
      batchesPerPass: c.batchesPerPass,
      integrityInterval: Duration.seconds(c.integrityIntervalS),
      integrityWindow: BigInt(Math.min(c.integrityWindow, c.retainedBlocks)),
      retainedBlocks: BigInt(c.retainedBlocks),
      failureBackoff: Duration.millis(c.failureBackoffMs)
    }
  }))
)
