import { Effect, Exit } from "effect"
import type { ReceiverStoreError } from "./ReceiverStoreError.js"
import { type EventKey, WebhookEventStore } from "./WebhookEventStore.js"

export type ProcessOnceResult<A> =
  | { readonly _tag: "Processed"; readonly value: A }
  /** Booked before: acknowledge with 200 `{"code":0}` and do nothing. */
  | { readonly _tag: "Duplicate" }
  /** Another request is booking it now: answer non-200 so the service asks again later. */
  | { readonly _tag: "InProgress" }

/**
 * Runs `process` at most once per app and event ID (the contract's receiver rule 1). The
 * claim is released when `process` fails or is interrupted, so a later retry can book the event;
 * it is completed only after `process` succeeded.
 */
export const processOnce = <A, E, R>(
  key: EventKey,
  process: Effect.Effect<A, E, R>
): Effect.Effect<ProcessOnceResult<A>, E | ReceiverStoreError, R | WebhookEventStore> =>
  Effect.gen(function*() {
    const store = yield* WebhookEventStore
    return yield* Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(store.claim(key), (claim): Effect.Effect<ProcessOnceResult<A>, E | ReceiverStoreError, R> => {
        if (claim === "processed") return Effect.succeed({ _tag: "Duplicate" })
        if (claim === "in-progress") return Effect.succeed({ _tag: "InProgress" })
        return restore(process).pipe(
          Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.ignore(store.release(key)))),
          Effect.tap(() => store.complete(key)),
          Effect.map((value) => ({ _tag: "Processed" as const, value }))
        )
      })
    )
  })
