/** How the scanner works through blocks; defaults suit a node budget of about 10 requests/s. */
export interface ScannerSettings {
  /** Blocks fetched before one storing transaction. */
  readonly batchBlocks: number
  /** Blocks fetched at once within a batch (each block is two node calls). */
  readonly fetchConcurrency: number
  /**
   * Where a network's first scan begins when nothing was scanned before; by default the
   * solidified block (nothing after it can be missed, nothing before it undone).
   */
  readonly startBlock?: bigint
  /**
   * The smallest transfer booked as a deposit on this network (base units) for tenants that set
   * no minimum of their own; absent or 0: any value above 0 (a 0-value transfer never is one).
   */
  readonly depositMinimum?: bigint
}

export const defaultScannerSettings: ScannerSettings = {
  batchBlocks: 20,
  fetchConcurrency: 4
}
