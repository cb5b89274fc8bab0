import { type OutboxEvent, sweepEvent } from "../notifications/OutboxEvent.js"
import type { SweepTask, TerminalSweepStatus } from "./SweepTask.js"

/** The terminal write of a task: its last state, the event that reports it, and what it changes in its wallet's books. */
export interface SweepOutcome {
  readonly task: SweepTask & { readonly status: TerminalSweepStatus }
  readonly event: OutboxEvent
  /** Added to the wallet's collected USDT, with the time of the collection; null when nothing was collected. */
  readonly collected: { readonly amount: bigint; readonly at: Date } | null
  /** Its transaction reached the chain (USDT moved or TRX burned), so balance sync must read the wallet again. */
  readonly balanceChanged: boolean
}

export const sweepOutcome = (task: SweepTask & { readonly status: TerminalSweepStatus }): SweepOutcome => ({
  task,
  event: sweepEvent(task),
  collected: task.status === "succeeded" ? { amount: task.amount, at: task.updatedAt } : null,
  balanceChanged: task.transaction !== null
})
