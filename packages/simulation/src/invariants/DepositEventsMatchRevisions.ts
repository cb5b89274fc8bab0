import { type Deposit, depositRecord } from "@collector/core"
import type { DepositHistory } from "../DepositHistory.js"
import type { Snapshot } from "../Snapshot.js"

/**
 * Every deposit event carries exactly the deposit as the core presents it at the event's
 * revision (the row committed at that revision, from the change feed), under that revision's
 * event ID and type.
 */
export const depositEventsMatchRevisions = (snapshot: Snapshot, history: DepositHistory): ReadonlyArray<string> => {
  const violations: Array<string> = []
  for (const event of snapshot.events) {
    if (event.depositId === null) continue
    const revision = event.revision ?? 0
    const row = history.at(event.depositId, revision)
    const figures = `event ${event.id} (${event.eventType}) of deposit ${event.depositId} at revision ${revision}`
    if (row === undefined && history.partial) continue
    if (row === undefined) {
      violations.push(`${figures}: the deposit was never stored at that revision`)
      continue
    }
    const { updatedAt: _, ...deposit } = row
    const expected = JSON.stringify(depositRecord(deposit satisfies Deposit))
    if (row.eventId !== event.id) violations.push(`${figures}: the revision names event ${row.eventId}`)
    if (event.payload !== expected) violations.push(`${figures}: payload ${event.payload} is not the record ${expected}`)
  }
  return violations
}
