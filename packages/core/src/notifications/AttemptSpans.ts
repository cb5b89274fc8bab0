import { Effect, Exit, FiberRef, type Tracer } from "effect"
import type { DueEvent } from "./DeliveryLedger.js"

/** How an attempt went, as far as its span tells. */
interface SpanOutcome {
  readonly httpStatus: number | null
  readonly delivered: boolean
  readonly error: string
}

/**
 * The spans of one group's webhook attempts: one `webhook.delivery` span per attempt while a
 * tracer is on, none otherwise. Each runs from the group's start (the URL check, the key, the
 * sealing, the mark) to the attempt's close, and is ended by hand where the attempt is closed:
 * often in a transport callback, outside any fiber. Never the URL's path or query (a tenant may
 * put a token there), the payload or a header: its host, the event and the answer's status.
 */
export interface AttemptSpans {
  /** Ends attempt `index`'s span with its outcome; an attempt not delivered is an error. */
  readonly close: (index: number, outcome: SpanOutcome) => void
  /** Ends it as never sent: its claim was lost to another dispatcher. */
  readonly lost: (index: number) => void
  /** Ends it as left open (the worker stopping, or a fault): the caller closes the attempt itself. */
  readonly abandon: (index: number, reason: string) => void
}

const none: AttemptSpans = { close: () => {}, lost: () => {}, abandon: () => {} }

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : "")

export const makeAttemptSpans = (
  group: ReadonlyArray<{ readonly event: DueEvent; readonly attempt: number; readonly url: string }>
): Effect.Effect<AttemptSpans> =>
  Effect.gen(function*() {
    if (!(yield* FiberRef.get(FiberRef.currentTracerEnabled))) return none
    const clock = yield* Effect.clock
    const host = hostOf(group[0]?.url ?? "")
    const spans: Array<Tracer.Span | undefined> = []
    for (const { attempt, event } of group) {
      spans.push(yield* Effect.makeSpan("webhook.delivery", {
        kind: "client",
        captureStackTrace: false,
        attributes: {
          "server.address": host,
          "webhook.event_id": event.eventId,
          "webhook.event_type": event.eventType,
          "webhook.round": event.round,
          "webhook.attempt": attempt,
          "collector.tenant_id": event.tenantId,
          "collector.network": event.network
        }
      }))
    }
    const end = (index: number, exit: Exit.Exit<unknown, unknown>, attributes: Record<string, unknown>) => {
      const span = spans[index]
      if (span === undefined) return
      spans[index] = undefined
      for (const key in attributes) span.attribute(key, attributes[key])
      span.end(clock.unsafeCurrentTimeNanos(), exit)
    }
    return {
      close: (index, outcome) =>
        end(
          index,
          outcome.delivered ? Exit.void : Exit.fail(outcome.error),
          outcome.httpStatus === null ? { "webhook.delivered": outcome.delivered } : { "webhook.delivered": outcome.delivered, "http.response.status_code": outcome.httpStatus }
        ),
      lost: (index) => end(index, Exit.void, { "webhook.sent": false }),
      abandon: (index, reason) => end(index, Exit.fail(reason), { "webhook.delivered": false })
    }
  })
