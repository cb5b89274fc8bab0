import { Duration } from "effect"

export interface ScannerLoopSettings {
  /** At the head: how often the node's head is polled for a new block (one light call each). */
  readonly pollInterval: Duration.Duration
  /** A dead scanner's lease runs out after this; another worker then takes over. */
  readonly leaseTtl: Duration.Duration
  /** Batches per pass, so confirmations and the heartbeat keep up during a long catch-up. */
  readonly batchesPerPass: number
  /** Re-check the last `integrityWindow` blocks on start and then this often. */
  readonly integrityInterval: Duration.Duration
  readonly integrityWindow: bigint
  /** Blocks kept below the solidified block. */
  readonly retainedBlocks: bigint
  /** Pause after a node or storage failure before the next pass. */
  readonly failureBackoff: Duration.Duration
}

export const defaultScannerLoopSettings: ScannerLoopSettings = {
  pollInterval: Duration.millis(500),
  leaseTtl: Duration.seconds(15),
  batchesPerPass: 5,
  integrityInterval: Duration.minutes(10),
  integrityWindow: 200n,
  retainedBlocks: 1200n,
  failureBackoff: Duration.seconds(5)
}
