import type { OutboxEvent } from "../notifications/OutboxEvent.js"
import type { MemoryTable } from "./MemoryTable.js"
import type { EventRow } from "./MemoryTables.js"

/**
 * The one writer of the memory `events` table, the twin of PostgreSQL's `insertEvents`: stores
 * the events the core built, inside the caller's atomic operation, every delivery column at its
 * start (pending, round 1, no attempt). A duplicate ID or deposit revision throws, as the
 * table's keys would refuse it.
 */
export const appendEvents = (table: MemoryTable<string, EventRow>, events: ReadonlyArray<OutboxEvent>): void => {
  for (const event of events) {
    if (table.has(event.id)) throw new Error(`events: duplicate key ${event.id}`)
    if (
      event.deposit !== null &&
      table.find((row) => row.depositId === event.deposit!.id && row.revision === event.deposit!.revision) !== undefined
    ) {
      throw new Error(`events: duplicate deposit revision ${event.deposit.id}/${event.deposit.revision}`)
    }
    table.put(event.id, {
      id: event.id,
      tenantId: event.tenantId,
      network: event.network,
      eventType: event.eventType,
      depositId: event.deposit?.id ?? null,
      revision: event.deposit?.revision ?? null,
      payload: event.payload,
      status: "pending",
      attempts: 0,
      currentRound: 1,
      nextAttempt: event.dueAt,
      deadlineAt: event.deadlineAt,
      lastError: "",
      createdAt: event.createdAt,
      deliveredAt: null,
      roundUrl: null,
      roundStartedAt: null,
      claimedBy: null,
      claimedUntil: null
    })
  }
}
