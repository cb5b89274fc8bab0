import type { BookingCommit } from "../ChainAtCommit.js"
import type { WorkloadLedger } from "../workload/WorkloadLedger.js"

/** Confirmations each block rule asks for, as the contract states them (written out, not taken from the core). */
const blocksNeeded: Readonly<Record<string, bigint>> = { block_1: 1n, block_3: 3n, block_6: 6n, block_12: 12n }

/**
 * Every booking (a deposit committed confirmed at a new revision) met its tenant's rule on the
 * chain as it stood at that commit: `block_N` with the head at least N - 1 blocks past the
 * deposit's block, `confirmations` between N and the blocks counted to that head; `solidified`
 * with the block at or below the solidified one and no count. The rule is the one the workload
 * set for the scope; head and solidified block are the simulator's at the commit.
 */
export const bookingTime = (bookings: ReadonlyArray<BookingCommit>, ledger: Pick<WorkloadLedger, "scope">): ReadonlyArray<string> => {
  const violations: Array<string> = []
  for (const { head, row, solidified } of bookings) {
    const rule = ledger.scope(row.tenantId, row.network)?.rule
    const figures = `${row.network}: deposit ${row.id} revision ${row.revision} in block ${row.blockNumber} booked at head ${head}, solidified ${solidified}`
    if (rule === undefined) {
      violations.push(`${figures}: its tenant ${row.tenantId} has no scope on ${row.network}`)
      continue
    }
    if (row.confirmationType !== rule) violations.push(`${figures}: confirmation_type ${row.confirmationType}, the tenant's rule is ${rule}`)
    if (rule === "solidified") {
      if (row.blockNumber > solidified) violations.push(`${figures}: booked under solidified before its block was`)
      if (row.confirmations !== null) violations.push(`${figures}: confirmations ${row.confirmations} under solidified, not null`)
      continue
    }
    const needed = blocksNeeded[rule]!
    const counted = head - row.blockNumber + 1n
    if (counted < needed) violations.push(`${figures}: ${counted} blocks counted, ${rule} needs ${needed}`)
    if (row.confirmations === null || BigInt(row.confirmations) < needed || BigInt(row.confirmations) > counted) {
      violations.push(`${figures}: confirmations ${row.confirmations}, not between ${needed} and ${counted}`)
    }
  }
  return violations
}
