import type { DeliveryAttemptRow, EventRow } from "./MemoryTables.js"

/*
 * The CHECK constraints of the events and delivery tables (packages/postgres/src/migrations
 * 0006, 0007). A write that breaks one is a bug in its caller: it throws, so the operation is
 * undone and dies, as the statement would fail in PostgreSQL.
 */

/** Attempts of one round are numbered 1 to this; an event counts 0 to this. */
export const maxAttemptNumber = 20

export const checkedEvent = (row: EventRow): EventRow => {
  if (!Number.isInteger(row.attempts) || row.attempts < 0 || row.attempts > maxAttemptNumber) {
    throw new Error(`events: attempts ${row.attempts} of event ${row.id} is outside 0..20`)
  }
  if (!Number.isInteger(row.currentRound) || row.currentRound < 1) {
    throw new Error(`events: current_round ${row.currentRound} of event ${row.id} is below 1`)
  }
  return row
}

export const checkedAttempt = (row: DeliveryAttemptRow): DeliveryAttemptRow => {
  if (!Number.isInteger(row.attempt) || row.attempt < 1 || row.attempt > maxAttemptNumber) {
    throw new Error(`delivery_attempts: attempt ${row.attempt} of event ${row.eventId} is outside 1..20`)
  }
  return row
}
