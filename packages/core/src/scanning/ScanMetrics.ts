import { counterFamily, gaugeFamily } from "../metrics/MetricFamily.js"

/**
 * The scanner's measures, set where the scanner decides them (`ScannerLoop`, `Confirmations`).
 * Only the engine holding a network's lease scans it, so on a worker without the lease these stay
 * where they were (or absent).
 */

/** Blocks between the node's head and the stored cursor after the last pass; never negative. */
export const scanHeadLag = gaugeFamily(
  "collector_scan_head_lag_blocks",
  "Blocks between the node's head and the last stored block, after the scanner's last pass",
  ["network"]
)

/** Blocks stored by the scanner (a block stored again after a reorganisation counts again). */
export const scanBlocks = counterFamily("collector_scan_blocks_total", "Blocks stored by the scanner", ["network"])

/**
 * Deposit revisions booked, by the event each one produced: `deposit.confirmed` (a new deposit, or
 * a reverted one confirmed again) and `deposit.reverted` (a reorganisation removed its transfer).
 * Counted once written: a booking refused as a conflict counts when the next pass writes it.
 */
export const depositsBooked = counterFamily(
  "collector_deposits_booked_total",
  "Deposit revisions booked, by the event they produced (deposit.confirmed, deposit.reverted)",
  ["network", "event_type"],
  { event_type: ["deposit.confirmed", "deposit.reverted"] }
)

/**
 * Transfers to tenant wallets not booked because of their value: `zero` (a 0-value Transfer log,
 * the address-poisoning kind) or `below_minimum` (under the tenant's or the network's minimum).
 * Counted when the scanner first stores the block; a block stored again after a reorganisation
 * counts again.
 */
export const depositsIgnored = counterFamily(
  "collector_deposits_ignored_total",
  "Transfers to tenant wallets not booked as deposits because of their value (zero, below_minimum)",
  ["network", "reason"],
  { reason: ["zero", "below_minimum"] }
)
