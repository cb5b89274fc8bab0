import { Clock, Context, Effect, Layer, Option } from "effect"
import type { EventId } from "../deposits/Deposit.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { DeliveryQuery } from "./DeliveryRecords.js"
import { roundDeadline } from "./DeliverySchedule.js"
import { EventNotFound } from "./EventNotFound.js"
import { EventNotRedeliverable } from "./EventNotRedeliverable.js"
import type { NotificationQuery } from "./NotificationEvent.js"
import { NotificationRepository } from "./NotificationRepository.js"

const make = Effect.gen(function*() {
  const repository = yield* NotificationRepository
  const orNotFound = (id: EventId) => <A, E, R>(found: Effect.Effect<Option.Option<A>, E, R>) =>
    Effect.flatMap(found, Option.match({ onNone: () => Effect.fail(new EventNotFound({ eventId: id })), onSome: Effect.succeed }))

  return {
    list: (scope: TenantScope, query: NotificationQuery) => repository.list(scope, query),
    find: (scope: TenantScope, id: EventId) => repository.find(scope, id).pipe(orNotFound(id)),
    rounds: (scope: TenantScope, id: EventId, query: DeliveryQuery) => repository.rounds(scope, id, query).pipe(orNotFound(id)),
    attempts: (scope: TenantScope, id: EventId, query: DeliveryQuery) => repository.attempts(scope, id, query).pipe(orNotFound(id)),

    /**
     * The contract: a re-push is accepted only while the current round ended `failed`; it opens
     * round n + 1 now, with a fresh 24 h deadline. The dispatcher fixes the round's URL from the
     * configuration current when it starts the round.
     */
    redeliver: (scope: TenantScope, id: EventId) =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* repository.startRound(scope, id, (current) =>
          current.status === "failed"
            ? Effect.succeed({ round: current.currentRound + 1, startedAt: now, deadlineAt: roundDeadline(now) })
            : Effect.fail(new EventNotRedeliverable({ eventId: id, status: current.status })))
      }).pipe(orNotFound(id))
  } as const
})

/**
 * The notification operations of one tenant scope. Reading never delivers or opens a round;
 * only `redeliver` writes, and only the fields of a new round (event ID and payload stay).
 */
export class Notifications extends Context.Tag("@collector/core/Notifications")<Notifications, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Notifications, make)
}
