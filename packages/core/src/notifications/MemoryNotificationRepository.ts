import { Effect, Layer, Option } from "effect"
import type { Page } from "../kernel/Page.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { DeliveryAttempt, DeliveryRound } from "./DeliveryRecords.js"
import { NotificationRepository } from "./NotificationRepository.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { notificationEventOf } from "../memory/NotificationEventOf.js"
import { checkedEvent } from "../memory/MemoryEventChecks.js"
import { deliveryAttempts, deliveryRounds, type EventRow, events } from "../memory/MemoryTables.js"

// IDs are bigints in PostgreSQL: "10" sorts after "9".
const descending = (a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0)

const pageOf = <A>(rows: ReadonlyArray<A>, query: { readonly page: number; readonly pageSize: number }): Page<A> => {
  const offset = (query.page - 1) * query.pageSize
  // PostgreSQL refuses a negative LIMIT or OFFSET.
  if (offset < 0 || query.pageSize < 0) throw new Error(`page ${query.page} of size ${query.pageSize} is not a page`)
  return { items: rows.slice(offset, offset + query.pageSize), total: rows.length }
}

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const table = db.table(events)
  const rounds = db.table(deliveryRounds)
  const attempts = db.table(deliveryAttempts)

  const inScope = (scope: TenantScope, id: string) => {
    const row = table.get(id)
    return row !== undefined && row.tenantId === scope.tenantId && row.network === scope.network ? row : undefined
  }

  /** The stored rounds, and the current one as it will start when it has no row yet. */
  const roundsOf = (event: EventRow): Array<DeliveryRound> => {
    const stored = rounds.filter((r) => r.eventId === event.id)
    const listed: Array<DeliveryRound> = stored.map(({ eventId: _, id: __, ...round }) => round)
    if (!stored.some((r) => r.round === event.currentRound)) {
      listed.push({
        round: event.currentRound,
        url: "",
        startedAt: event.roundStartedAt ?? event.createdAt,
        deadlineAt: event.deadlineAt,
        endedAt: null,
        outcome: null,
        reason: ""
      })
    }
    return listed.sort((a, b) => b.round - a.round)
  }

  return NotificationRepository.of({
    list: (scope, query) =>
      db.atomically(() => {
        const rows = table.filter((row) =>
          row.tenantId === scope.tenantId && row.network === scope.network &&
          (query.eventType === undefined || row.eventType === query.eventType) &&
          (query.status === undefined || row.status === query.status)
        )
        rows.sort((a, b) => descending(BigInt(a.id), BigInt(b.id)))
        return pageOf(rows.map(notificationEventOf), query)
      }),

    find: (scope, id) => db.atomically(() => Option.map(Option.fromNullable(inScope(scope, id)), notificationEventOf)),

    rounds: (scope, id, query) =>
      db.atomically(() => Option.map(Option.fromNullable(inScope(scope, id)), (event) => pageOf(roundsOf(event), query))),

    attempts: (scope, id, query) =>
      db.atomically(() =>
        Option.map(Option.fromNullable(inScope(scope, id)), (event) => {
          const rows = attempts.filter((a) => a.eventId === event.id && (query.round === undefined || a.round === query.round))
          rows.sort((a, b) => b.round - a.round || b.attempt - a.attempt)
          return pageOf(
            rows.map(({ id: _, eventId: __, sentAt: ___, ...attempt }): DeliveryAttempt => attempt),
            query
          )
        })
      ),

    // One transaction: the dispatcher's claims and other re-pushes wait until `decide` is done and
    // its round saved, then see that round.
    startRound: (scope, id, decide) =>
      db.transaction(Effect.gen(function*() {
        const row = yield* db.atomically(() => inScope(scope, id))
        if (row === undefined) return Option.none()
        const next = yield* decide(notificationEventOf(row))
        // The URL is fixed by the dispatcher when it starts the round; the previous round's claim is void.
        const saved = yield* db.atomically(() =>
          table.update(row.id, (current) =>
            checkedEvent({
              ...current,
              currentRound: next.round,
              attempts: 0,
              status: "pending",
              nextAttempt: next.startedAt,
              deadlineAt: next.deadlineAt,
              lastError: "",
              roundUrl: null,
              roundStartedAt: next.startedAt,
              claimedBy: null,
              claimedUntil: null
            })
          )
        )
        return Option.some(notificationEventOf(saved))
      }))
  })
})

export const layer = Layer.effect(NotificationRepository, make)
