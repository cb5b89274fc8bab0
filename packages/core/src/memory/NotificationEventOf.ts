import type { EventId } from "../deposits/Deposit.js"
import type { NotificationEvent } from "../notifications/NotificationEvent.js"
import type { EventRow } from "./MemoryTables.js"

/** An event as the operations read it (the notification list and detail, a sweep task's webhook). */
export const notificationEventOf = (row: EventRow): NotificationEvent => ({
  id: row.id as EventId,
  network: row.network,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  currentRound: row.currentRound,
  nextAttempt: row.nextAttempt,
  deadlineAt: row.deadlineAt,
  lastError: row.lastError,
  createdAt: row.createdAt,
  deliveredAt: row.deliveredAt,
  payload: row.payload
})
