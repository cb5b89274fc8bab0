import type { DepositHistory } from "../DepositHistory.js"

/**
 * Every committed write of a deposit is a new revision, higher than the one before, starting at
 * 1; a deposit is never deleted. Watched on the change feed: the final row shows only the last.
 */
export const revisionsIncrease = (history: DepositHistory): ReadonlyArray<string> => {
  const violations: Array<string> = []
  for (const [id, rows] of history.writes) {
    const revisions = rows.map((row) => (row === null ? "deleted" : String(row.revision)))
    const figures = `deposit ${id} was written at revisions [${revisions.join(",")}]`
    let previous = 0
    for (const row of rows) {
      if (row === null) {
        violations.push(`${figures}: deleted`)
        break
      }
      if (previous === 0 && row.revision !== 1) {
        violations.push(`${figures}: its first revision is not 1`)
        break
      }
      if (row.revision <= previous) {
        violations.push(`${figures}: revision ${row.revision} after ${previous} does not increase`)
        break
      }
      previous = row.revision
    }
  }
  return violations
}
