import { Context, Effect, Layer } from "effect"
import type { ReceiverStoreError } from "./ReceiverStoreError.js"

/** Events are unique per app: the contract's receiver rule 1, docs/notifications-receiver.md (appID plus `event_id`). */
export interface EventKey {
  readonly appId: string
  readonly eventId: string
}

/**
 * - `claimed`: this caller now owns the event and must `complete` or `release` it.
 * - `processed`: the event was booked before; acknowledge it again, do nothing else.
 * - `in-progress`: another request owns it right now; do not acknowledge, since that one may still fail.
 */
export type ClaimResult = "claimed" | "processed" | "in-progress"

/**
 * Which events were booked. `claim` must be atomic: of several concurrent claims of one event,
 * exactly one gets `claimed`.
 *
 * Production must use a persistent store (the service re-sends an event for up to 24 hours per
 * round and re-pushes it in new rounds, also across receiver restarts). The SQL shape: a table
 * with primary key (app_id, event_id), inserted with `ON CONFLICT DO NOTHING` in the same
 * transaction as the booking, so that a crash between claim and booking leaves nothing behind.
 */
export interface WebhookEventStoreService {
  readonly claim: (key: EventKey) => Effect.Effect<ClaimResult, ReceiverStoreError>
  /** The owner booked the event: from now on every claim answers `processed`. */
  readonly complete: (key: EventKey) => Effect.Effect<void, ReceiverStoreError>
  /** The owner failed to book it: the next delivery may claim it again. */
  readonly release: (key: EventKey) => Effect.Effect<void, ReceiverStoreError>
}

export class WebhookEventStore extends Context.Tag("@collector/sdk/WebhookEventStore")<WebhookEventStore, WebhookEventStoreService>() {
  /** In-memory store for tests and demonstrations only: forgotten on restart. */
  static readonly layerMemory: Layer.Layer<WebhookEventStore> = Layer.sync(WebhookEventStore, () => makeMemoryWebhookEventStore())
}

// A JSON pair cannot collide the way "1" + ":" + "2:3" and "1:2" + ":" + "3" would.
const keyText = (key: EventKey) => JSON.stringify([key.appId, key.eventId])

/**
 * Map-based store. JavaScript runs each `Effect.sync` to completion, so check-and-set inside one
 * is atomic across fibers and concurrent requests of one process.
 */
export const makeMemoryWebhookEventStore = (): WebhookEventStoreService & { readonly states: ReadonlyMap<string, "in-progress" | "processed"> } => {
  const states = new Map<string, "in-progress" | "processed">()
  return {
    states,
    claim: (key) =>
      Effect.sync(() => {
        const state = states.get(keyText(key))
        if (state !== undefined) return state
        states.set(keyText(key), "in-progress")
        return "claimed"
      }),
    complete: (key) => Effect.sync(() => void states.set(keyText(key), "processed")),
    release: (key) =>
      Effect.sync(() => {
        if (states.get(keyText(key)) === "in-progress") states.delete(keyText(key))
      })
  }
}
