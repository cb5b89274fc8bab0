import type { SettlementCommit } from "../ChainAtCommit.js"

/**
 * A task that ended on its transaction's receipt (succeeded, or failed with a transaction on
 * the chain) ended only once that transaction's block was solidified: at the commit that made
 * it terminal, the simulator's canonical chain held the transaction at or below its solidified
 * block. A task that succeeded on a transaction no canonical block held then is reported too.
 */
export const settledWhenSolid = (settlements: ReadonlyArray<SettlementCommit>): ReadonlyArray<string> => {
  const violations: Array<string> = []
  for (const { row, solidified, txBlock } of settlements) {
    const txid = row.transaction?.txid
    const figures = `${row.network}: task ${row.id} ${row.status} with transaction ${txid ?? "none"}`
    if (txBlock === null) {
      if (row.status === "succeeded") violations.push(`${figures}: no canonical block held the transaction when it ended`)
      continue
    }
    if (row.status === "cancelled") continue
    if (txBlock > solidified) violations.push(`${figures}: ended with its block ${txBlock} above the solidified ${solidified}`)
  }
  return violations
}
