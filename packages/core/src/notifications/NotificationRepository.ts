import { Context, type Effect, type Option } from "effect"
import type { EventId } from "../deposits/Deposit.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { DeliveryAttempt, DeliveryQuery, DeliveryRound } from "./DeliveryRecords.js"
import type { Page } from "../kernel/Page.js"
import type { NotificationEvent, NotificationQuery } from "./NotificationEvent.js"

/** The fields a new delivery round sets on its event; everything else about the event stays. */
export interface NewRound {
  readonly round: number
  readonly startedAt: Date
  readonly deadlineAt: Date
}

/**
 * Port: the notification events of one tenant scope as the operations read them, and the one
 * write the operations make (starting a round). Storage failures are defects.
 */
export class NotificationRepository extends Context.Tag("@collector/core/NotificationRepository")<
  NotificationRepository,
  {
    /** Event ID descending. */
    readonly list: (scope: TenantScope, query: NotificationQuery) => Effect.Effect<Page<NotificationEvent>>
    readonly find: (scope: TenantScope, id: EventId) => Effect.Effect<Option.Option<NotificationEvent>>
    /** Newest round first; None when the event is not in the scope. */
    readonly rounds: (scope: TenantScope, id: EventId, query: DeliveryQuery) => Effect.Effect<Option.Option<Page<DeliveryRound>>>
    /** Newest attempt first (round, then attempt, descending); None when the event is not in the scope. */
    readonly attempts: (scope: TenantScope, id: EventId, query: DeliveryQuery) => Effect.Effect<Option.Option<Page<DeliveryAttempt>>>
    /**
     * Starts a new round on the event while holding it locked against the dispatcher and other
     * re-pushes: `decide` sees the event as it stands under the lock and either names the round
     * or refuses. None when the event is not in the scope; otherwise the event as saved.
     */
    readonly startRound: <E>(
      scope: TenantScope,
      id: EventId,
      decide: (current: NotificationEvent) => Effect.Effect<NewRound, E>
    ) => Effect.Effect<Option.Option<NotificationEvent>, E>
  }
>() {}
