import type { TaskHistory } from "../TaskHistory.js"

/**
 * No sweep task was signed twice: once a task holds a signed transaction it keeps that one
 * transaction for good (never another, never none), no two tasks hold the same one, and no task
 * is deleted. Watched on the change feed, since a second signature may leave only itself behind.
 */
export const noTaskSignedTwice = (history: TaskHistory): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const holders = new Map<string, Array<string>>()
  for (const [id, held] of history.transactions) {
    const signed = held.filter((t) => t !== null)
    const txids = [...new Set(signed.map((t) => t.txid))]
    for (const txid of txids) holders.set(txid, [...(holders.get(txid) ?? []), id])
    const figures = `task ${id} held transactions [${held.map((t) => t?.txid ?? "none").join(", ")}]`
    if (signed.length > 1) violations.push(`${figures}: signed ${signed.length} times`)
    else if (signed.length === 1 && held.at(-1) === null) violations.push(`${figures}: its signed transaction was dropped`)
  }
  for (const [txid, tasks] of holders) {
    if (tasks.length > 1) violations.push(`transaction ${txid} is held by tasks ${tasks.join(", ")}`)
  }
  for (const id of history.deleted) violations.push(`task ${id} was deleted`)
  return violations
}
