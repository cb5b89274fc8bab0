import { isTerminal, type StoredTransaction } from "./SweepTask.js"
import type { SweepTaskRow } from "../memory/MemoryTables.js"

/*
 * What the PostgreSQL table `sweep_tasks` refuses (migration 0008: its CHECKs and the
 * `sweep_tasks_guard` trigger), refused alike in memory: each throws, so the operation that
 * attempted the write is undone and becomes a defect, as a raised error is in PostgreSQL.
 */

const refuse = (row: SweepTaskRow, why: string): never => {
  throw new Error(`sweep task ${row.id}: ${why}`)
}

const nonNegative = (row: SweepTaskRow, column: string, value: bigint | null) => {
  if (value !== null && value < 0n) refuse(row, `${column} ${value} is negative`)
}

/** The table's CHECK constraints, on every row written. */
export const checkSweepTask = (row: SweepTaskRow): void => {
  if (row.mode === "all" ? row.requestedAmount !== null : row.requestedAmount === null || row.requestedAmount <= 0n) {
    refuse(row, `mode ${row.mode} with requested amount ${row.requestedAmount}`)
  }
  if (row.minimumAmount !== null && row.minimumAmount <= 0n) refuse(row, `minimum amount ${row.minimumAmount} is not positive`)
  // The stored transaction is whole or absent: a txid always comes with the bytes that were signed.
  if (row.transaction !== null && row.transaction.txid === "") refuse(row, "a stored transaction without its txid")
  if ((row.status === "signed" || row.status === "broadcast" || row.status === "unknown") && row.transaction === null) {
    refuse(row, `${row.status} without its stored transaction`)
  }
  if ((row.claimedBy === null) !== (row.claimedUntil === null)) refuse(row, "a claim without its holder or its end")
  if (row.version < 0) refuse(row, `version ${row.version} is negative`)
  nonNegative(row, "amount", row.amount)
  nonNegative(row, "actual fee", row.actualFee)
  nonNegative(row, "actual bandwidth fee", row.actualBandwidthFee)
  nonNegative(row, "prepared energy", row.preparedEnergy)
  nonNegative(row, "estimated wallet TRX fee", row.estimatedWalletTrxFee)
  nonNegative(row, "max wallet TRX fee", row.maxWalletTrxFee)
  if (row.rental !== null) {
    nonNegative(row, "rental quantity", row.rental.quantity)
    nonNegative(row, "rental estimated cost", row.rental.estimatedCost)
    nonNegative(row, "rental paid cost", row.rental.paidCost)
    nonNegative(row, "rental activation cost", row.rental.activationCost)
  }
}

const sameTransaction = (a: StoredTransaction | null, b: StoredTransaction | null) =>
  a === null || b === null
    ? a === b
    : a.txid === b.txid && a.rawDataHex === b.rawDataHex && a.signature === b.signature &&
      a.expiration.getTime() === b.expiration.getTime() && a.feeLimit === b.feeLimit

const sameRequest = (a: SweepTaskRow, b: SweepTaskRow) =>
  a.tenantId === b.tenantId && a.network === b.network && a.walletId === b.walletId && a.address === b.address &&
  a.mode === b.mode && a.requestedAmount === b.requestedAmount && a.destination === b.destination && a.origin === b.origin &&
  a.createdAt.getTime() === b.createdAt.getTime()

/**
 * The trigger, on every update: a terminal task never changes again, a stored transaction is
 * never replaced or removed (nothing is re-signed), a rental order keeps its number, and what
 * the task was created for stays as it was.
 */
export const guardSweepTaskUpdate = (old: SweepTaskRow, next: SweepTaskRow): void => {
  if (isTerminal(old.status)) refuse(old, `${old.status} is terminal and never changes`)
  if (old.transaction !== null && !sameTransaction(old.transaction, next.transaction)) {
    refuse(old, `the stored transaction ${old.transaction.txid} is never replaced`)
  }
  if (old.rental !== null && next.rental?.orderId !== old.rental.orderId) refuse(old, `rental order ${old.rental.orderId} keeps its number`)
  if (!sameRequest(old, next)) refuse(old, "what the task was created for never changes")
}
