import type { DepositEvent } from "../../webhook/DepositEvent.js"
import type { SweepResultEvent } from "../../webhook/SweepResultEvent.js"
import { isDepositEvent, type WebhookEvent } from "../../webhook/WebhookEvent.js"
import type { WebhookHeaders } from "../../webhook/WebhookHeaders.js"
import { webhookKeyBytes, type WebhookKeyInput } from "../../webhook/WebhookKey.js"
import { webhookAcknowledgement, webhookFailure, webhookInProgress, type WebhookResponse } from "../../webhook/WebhookResponse.js"
import { MemoryWebhookStore } from "./MemoryWebhookStore.js"
import { verifyAndOpen } from "./verifyAndOpen.js"
import { WebhookVerificationError } from "./WebhookVerificationError.js"
import type { WebhookStore } from "./WebhookStore.js"

export interface WebhookHandlerOptions {
  /** The app's webhook key: base64 of 32 bytes, as printed at provisioning. */
  readonly webhookKey: WebhookKeyInput
  /** The app ID this endpoint receives for; deliveries for another app are refused. */
  readonly appId: string
  /** Called once per deposit revision above the highest booked for its `id`; a rejection answers 500 and the event comes again. */
  readonly onDeposit?: (event: DepositEvent) => unknown | Promise<unknown>
  /** Called once per sweep result; a rejection answers 500 and the event comes again. */
  readonly onSweep?: (event: SweepResultEvent) => unknown | Promise<unknown>
  /** Where booked events and revisions are kept (default: a `MemoryWebhookStore`, for trials only). */
  readonly store?: WebhookStore
  /** Told of every failure answered with 500 (a handler's or the store's), for logging. */
  readonly onError?: (error: unknown, event: WebhookEvent) => void
}

export type WebhookOutcome = "applied" | "duplicate" | "older-revision" | "in-progress" | "rejected" | "failed"

/** What to answer (`status`, `headers`, `body`: write them as they are) and what happened. */
export interface HandledWebhook extends WebhookResponse {
  readonly outcome: WebhookOutcome
  readonly event?: WebhookEvent
  readonly error?: unknown
}

const rejectionResponse = (error: WebhookVerificationError): WebhookResponse => ({
  status: 400,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ code: 400, message: `webhook rejected: ${error.reason}` })
})

/**
 * The whole receiver, framework-neutral: verify and open (`verifyAndOpen`), book each event at
 * most once per app and event ID, book a deposit revision only above the highest booked, and
 * choose the contract's answer: 200 `{"code":0}` for a booked event, a duplicate or an older
 * revision; 400 for a rejected delivery; 409 while another request books the same event; 500 when
 * booking failed (the service sends it again). Never rejects.
 */
export const createWebhookHandler = (options: WebhookHandlerOptions) => {
  const store = options.store ?? new MemoryWebhookStore()
  // Checked now, so a misconfigured key fails at start rather than on the first delivery.
  verifyKeyShape(options.webhookKey)
  return async (rawBody: string | Uint8Array, headers: WebhookHeaders): Promise<HandledWebhook> => {
    let event: WebhookEvent
    try {
      event = verifyAndOpen(rawBody, headers, options.webhookKey, { appId: options.appId })
    } catch (error) {
      if (error instanceof WebhookVerificationError) return { ...rejectionResponse(error), outcome: "rejected", error }
      return { ...webhookFailure, outcome: "failed", error }
    }
    const key = { appId: options.appId, eventId: event.event_id }
    try {
      const claim = await store.claim(key)
      if (claim === "processed") return { ...webhookAcknowledgement, outcome: "duplicate", event }
      if (claim === "in-progress") return { ...webhookInProgress, outcome: "in-progress", event }
      let outcome: WebhookOutcome = "applied"
      try {
        if (isDepositEvent(event)) {
          const deposit = event
          const booked = await store.bookIfHigher(deposit.id, deposit.revision, async () => options.onDeposit?.(deposit))
          if (!booked.applied) outcome = "older-revision"
        } else {
          await options.onSweep?.(event)
        }
      } catch (error) {
        await store.release(key).catch(() => undefined)
        throw error
      }
      await store.complete(key)
      return { ...webhookAcknowledgement, outcome, event }
    } catch (error) {
      options.onError?.(error, event)
      return { ...webhookFailure, outcome: "failed", event, error }
    }
  }
}

const verifyKeyShape = (key: WebhookKeyInput) => {
  try {
    webhookKeyBytes(key)
  } catch (error) {
    throw new TypeError((error as Error).message)
  }
}
