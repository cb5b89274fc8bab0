import type { Deposit, DepositId, EventId } from "../deposits/Deposit.js"
import { depositRecord } from "../deposits/DepositRecord.js"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { sweepResultBody } from "../sweeps/SweepResultBody.js"
import { asEventId, type SweepTask, type TerminalSweepStatus } from "../sweeps/SweepTask.js"
import { roundDeadline } from "./DeliverySchedule.js"
import type { EventType } from "./EventTypes.js"

/**
 * A notification event as the state change that causes it creates it: the row the outbox stores
 * in the same transaction as that change, before any delivery. Every event a tenant is ever sent
 * is built here, and nowhere else.
 */
export interface OutboxEvent {
  readonly id: EventId
  readonly tenantId: TenantId
  readonly network: Network
  readonly eventType: EventType
  /** The deposit revision a deposit event reports; null for a sweep event. */
  readonly deposit: { readonly id: DepositId; readonly revision: number } | null
  /** The exact JSON text every delivery seals and the detail operation returns. */
  readonly payload: string
  /** The first attempt is due at once; the first round ends 24 hours later. */
  readonly dueAt: Date
  readonly deadlineAt: Date
  readonly createdAt: Date
}

const announced = (at: Date) => ({ dueAt: at, deadlineAt: roundDeadline(at), createdAt: at })

/** `deposit.confirmed` or `deposit.reverted` for the deposit's current revision, whose event ID it carries. */
export const depositEvent = (deposit: Deposit, at: Date): OutboxEvent => ({
  id: deposit.eventId,
  tenantId: deposit.tenantId,
  network: deposit.network,
  eventType: deposit.status === "confirmed" ? "deposit.confirmed" : "deposit.reverted",
  deposit: { id: deposit.id, revision: deposit.revision },
  // Each revision's event carries that revision's record exactly: a later change never rewrites it.
  payload: JSON.stringify(depositRecord(deposit)),
  ...announced(at)
})

/** `sweep.succeeded|failed|cancelled` for a task that has just ended; its ID is the task's (one shared sequence). */
export const sweepEvent = (task: SweepTask & { readonly status: TerminalSweepStatus }): OutboxEvent => ({
  id: asEventId(task.id),
  tenantId: task.tenantId,
  network: task.network,
  eventType: `sweep.${task.status}`,
  deposit: null,
  payload: JSON.stringify(sweepResultBody(task)),
  ...announced(task.updatedAt)
})
