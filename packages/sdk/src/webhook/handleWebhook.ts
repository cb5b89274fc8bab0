import { Cause, Effect } from "effect"
import type { DepositEvent } from "./DepositEvent.js"
import { applyDepositRevision } from "./applyDepositRevision.js"
import type { DepositRevisionStore } from "./DepositRevisionStore.js"
import { processOnce } from "./processOnce.js"
import { receiveWebhook, type ReceiveWebhookInput } from "./receiveWebhook.js"
import type { SweepResultEvent } from "./SweepResultEvent.js"
import { isDepositEvent, type WebhookEvent } from "./WebhookEvent.js"
import type { WebhookEventStore } from "./WebhookEventStore.js"
import type { WebhookRejected } from "./WebhookRejected.js"
import { webhookAcknowledgement, webhookFailure, webhookInProgress, webhookRejection, type WebhookResponse } from "./WebhookResponse.js"

/** The tenant's booking. A failure (or defect) is answered with 500 and the event comes again. */
export interface WebhookHandlers<R> {
  /** Called only for a deposit revision above the highest booked for its `id`. */
  readonly onDeposit: (event: DepositEvent) => Effect.Effect<unknown, unknown, R>
  readonly onSweep: (event: SweepResultEvent) => Effect.Effect<unknown, unknown, R>
}

export type WebhookHandled =
  | { readonly outcome: "applied"; readonly response: WebhookResponse; readonly event: WebhookEvent }
  | { readonly outcome: "duplicate"; readonly response: WebhookResponse; readonly event: WebhookEvent }
  | { readonly outcome: "older-revision"; readonly response: WebhookResponse; readonly event: DepositEvent }
  | { readonly outcome: "in-progress"; readonly response: WebhookResponse; readonly event: WebhookEvent }
  | { readonly outcome: "rejected"; readonly response: WebhookResponse; readonly rejected: WebhookRejected }
  | { readonly outcome: "failed"; readonly response: WebhookResponse; readonly cause: Cause.Cause<unknown> }

/**
 * The whole receiver in one call: verify (`receiveWebhook`), de-duplicate by app and event ID
 * (`processOnce`), apply the deposit revision rule (`applyDepositRevision`), book through
 * `handlers`, and choose the response to send. Never fails; every outcome carries its response.
 */
export const handleWebhook = <R>(
  request: ReceiveWebhookInput,
  handlers: WebhookHandlers<R>
): Effect.Effect<WebhookHandled, never, R | WebhookEventStore | DepositRevisionStore> =>
  Effect.either(receiveWebhook(request)).pipe(
    Effect.flatMap((received): Effect.Effect<WebhookHandled, unknown, R | WebhookEventStore | DepositRevisionStore> => {
      if (received._tag === "Left") return Effect.succeed({ outcome: "rejected", response: webhookRejection(received.left), rejected: received.left })
      const event = received.right
      const book = isDepositEvent(event)
        ? Effect.map(applyDepositRevision(event, handlers.onDeposit(event)), (outcome) => outcome._tag)
        : Effect.as(handlers.onSweep(event), "Applied" as const)
      return Effect.map(processOnce({ appId: request.appId, eventId: event.event_id }, book), (result): WebhookHandled => {
        if (result._tag === "Duplicate") return { outcome: "duplicate", response: webhookAcknowledgement, event }
        if (result._tag === "InProgress") return { outcome: "in-progress", response: webhookInProgress, event }
        if (result.value === "Acknowledged") return { outcome: "older-revision", response: webhookAcknowledgement, event: event as DepositEvent }
        return { outcome: "applied", response: webhookAcknowledgement, event }
      })
    }),
    Effect.catchAllCause((cause) => Effect.succeed<WebhookHandled>({ outcome: "failed", response: webhookFailure, cause }))
  )
