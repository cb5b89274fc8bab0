import type { WalletId } from "../kernel/Ids.js"
import type { BalanceReading } from "./BalanceLedger.js"

/**
 * Of several readings of one wallet in a batch, the one at the highest block (the first of
 * equals), so that a batch writes each wallet once and the same one whatever the storage.
 */
export const newestReadings = (readings: ReadonlyArray<BalanceReading>): ReadonlyArray<BalanceReading> => {
  const newest = new Map<WalletId, BalanceReading>()
  for (const reading of readings) {
    const seen = newest.get(reading.walletId)
    if (seen === undefined || seen.atBlock < reading.atBlock) newest.set(reading.walletId, reading)
  }
  return [...newest.values()]
}
