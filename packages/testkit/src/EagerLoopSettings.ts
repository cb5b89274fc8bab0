// The kit's copy of the core's test settings (core/src/testing), for the same reason as TestDeliveryTransport.ts.
import { Duration } from "effect"
import type { ScannerLoopSettings, SweeperSettings } from "@collector/core"

/**
 * The loops' settings for tests that drive them pass by pass on a simulated chain: the sweeper
 * waits for nothing, so each pass looks at every unfinished task and a test advances a task by
 * passes and blocks; the scanner polls and backs off briefly.
 */
export const eagerSweeperSettings: SweeperSettings = {
  batchSize: 1000,
  concurrency: 8,
  leaseTtl: Duration.seconds(30),
  idleInterval: Duration.millis(10),
  settleDelay: Duration.zero,
  settleInterval: Duration.zero,
  bandwidthInterval: Duration.zero,
  rentalInterval: Duration.zero,
  retryInterval: Duration.zero,
  rebroadcastInterval: Duration.zero,
  expiryMargin: Duration.seconds(3),
  minimumValidity: Duration.seconds(5),
  transactionValidity: Duration.seconds(90)
}

export const eagerScannerLoopSettings: ScannerLoopSettings = {
  pollInterval: Duration.millis(50),
  leaseTtl: Duration.seconds(5),
  batchesPerPass: 1000,
  integrityInterval: Duration.hours(1),
  integrityWindow: 50n,
  retainedBlocks: 100n,
  failureBackoff: Duration.millis(50)
}
