import { SweepResultBody } from "@collector/api"
import { Either, Schema } from "effect"
import type { Snapshot } from "../Snapshot.js"

const decodeBody = Schema.decodeUnknownEither(Schema.parseJson(SweepResultBody))

/** The statuses a task ends in, as the contract lists them. */
const terminal: ReadonlySet<string> = new Set(["succeeded", "failed", "cancelled"])

/**
 * Every task that ended has exactly one event, under its own ID, whose payload, decoded with the
 * published `SweepResultBody` schema, says member by member what the task stored (amounts as
 * decimal text, the transaction's ID or "" without one); every sweep event belongs to a task
 * that ended. Expected values are written out here from the stored task, not built by the core.
 */
export const sweepEventsMatchTasks = (snapshot: Snapshot): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const tasks = new Map(snapshot.sweepTasks.map((t) => [t.id as string, t]))
  const sweepEvents = snapshot.events.filter((e) => e.depositId === null)
  for (const event of sweepEvents) {
    const task = tasks.get(event.id)
    const figures = `event ${event.id} (${event.eventType})`
    if (task === undefined || !terminal.has(task.status)) {
      violations.push(`${figures}: its task is ${task === undefined ? "missing" : task.status}, not ended`)
      continue
    }
    if (event.eventType !== `sweep.${task.status}`) violations.push(`${figures}: its task ${task.id} ended ${task.status}`)
    const decoded = decodeBody(event.payload)
    if (Either.isLeft(decoded)) {
      violations.push(`${figures}: payload is not a SweepResultBody: ${event.payload}`)
      continue
    }
    const body = decoded.right
    const expected: ReadonlyArray<readonly [string, unknown, unknown]> = [
      ["event_id", body.event_id, task.id],
      ["event_type", body.event_type, `sweep.${task.status}`],
      ["network", body.network, task.network],
      ["task_id", body.task_id, task.id],
      ["wallet_id", body.wallet_id, task.walletId],
      ["amount", body.amount, task.amount.toString()],
      ["destination", body.destination, task.destination],
      ["txid", body.txid, task.transaction?.txid ?? ""],
      ["status", body.status, task.status],
      ["reason", body.reason, task.reason],
      ["actual_fee", body.actual_fee, task.actualFee.toString()]
    ]
    for (const [member, got, wanted] of expected) {
      if (got !== wanted) violations.push(`${figures}: ${member} is ${String(got)}, not the task's ${String(wanted)}`)
    }
  }
  for (const task of snapshot.sweepTasks) {
    if (!terminal.has(task.status)) continue
    const count = sweepEvents.filter((e) => e.id === task.id).length
    if (count !== 1) violations.push(`task ${task.id} ended ${task.status} with ${count} events, not 1`)
  }
  return violations
}
