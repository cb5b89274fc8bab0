import { SettingsRepository } from "../settings/SettingsRepository.js"
import { Effect } from "effect"
import type { Network } from "../kernel/Network.js"
import { roundDeadline } from "../notifications/DeliverySchedule.js"
import type { EventType } from "../notifications/EventTypes.js"
import type { OutboxEvent } from "../notifications/OutboxEvent.js"
import { DepositBook } from "../scanning/DepositBook.js"
import type { TenantScope } from "../tenants/Scope.js"
import { type FixtureScope, type FixtureWebhook, StorageFixtures } from "./StorageFixtures.js"

export interface EventFields {
  readonly eventType?: EventType
  /** The stored JSON text; by default a small body naming the event. */
  readonly payload?: (id: string) => string
}

/**
 * A new event of the scope, written as the outbox writes one: its ID drawn from the shared
 * sequence, due at `at`, its first round ending 24 hours later.
 */
export const outboxEvent = (scope: TenantScope, at: Date, fields: EventFields = {}) =>
  Effect.gen(function*() {
    const [id] = (yield* Effect.flatMap(DepositBook, (book) => book.reserveIds({ deposits: 0, events: 1 }))).events
    const eventType = fields.eventType ?? "sweep.succeeded"
    const event: OutboxEvent = {
      id: id!,
      tenantId: scope.tenantId,
      network: scope.network,
      eventType,
      deposit: null,
      payload: fields.payload?.(id!) ?? JSON.stringify({ event_id: id, event_type: eventType, network: scope.network }),
      dueAt: at,
      deadlineAt: roundDeadline(at),
      createdAt: at
    }
    yield* Effect.flatMap(StorageFixtures, (fixtures) => fixtures.event(event))
    return event
  })

/** A new scope (tenant and app) on `network` with this webhook configuration, or none at all. */
export const webhookScope = (
  network: Network,
  webhook: FixtureWebhook | null
): Effect.Effect<FixtureScope, never, StorageFixtures | SettingsRepository> =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope(network)
    if (webhook !== null) yield* Effect.flatMap(SettingsRepository, (settings) => settings.setWebhook(scope, webhook))
    return scope
  })
