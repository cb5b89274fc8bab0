import { isTerminal, sweepResultBody, type TerminalSweepStatus } from "@collector/core"
import type { Snapshot } from "../Snapshot.js"

/**
 * Every task that ended has exactly one event, under its own ID, whose payload is the task's
 * outcome as stored; every sweep event belongs to a task that ended.
 */
export const sweepEventsMatchTasks = (snapshot: Snapshot): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const tasks = new Map(snapshot.sweepTasks.map((t) => [t.id as string, t]))
  const sweepEvents = snapshot.events.filter((e) => e.depositId === null)
  for (const event of sweepEvents) {
    const task = tasks.get(event.id)
    const figures = `event ${event.id} (${event.eventType})`
    if (task === undefined || !isTerminal(task.status)) {
      violations.push(`${figures}: its task is ${task === undefined ? "missing" : task.status}, not ended`)
      continue
    }
    const expected = JSON.stringify(sweepResultBody({ ...task, status: task.status as TerminalSweepStatus }))
    if (event.eventType !== `sweep.${task.status}`) violations.push(`${figures}: its task ${task.id} ended ${task.status}`)
    if (event.payload !== expected) violations.push(`${figures}: payload ${event.payload} is not the task's outcome ${expected}`)
  }
  for (const task of snapshot.sweepTasks) {
    if (!isTerminal(task.status)) continue
    const count = sweepEvents.filter((e) => e.id === task.id).length
    if (count !== 1) violations.push(`task ${task.id} ended ${task.status} with ${count} events, not 1`)
  }
  return violations
}
