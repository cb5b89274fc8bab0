import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authenticated } from "../Authenticated.js"
import { Ok } from "../Envelope.js"
import { ObjectId, RequestId, strict, Timestamp } from "../Fields.js"
import { Network } from "./WalletsApi.js"

const Count = Schema.Int.pipe(Schema.nonNegative())
const Round = Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))
const Outcome = Schema.NullOr(Schema.Literal("delivered", "failed")).annotations({
  description: "How the round or attempt ended: delivered or failed; null while it is still running."
})

export const WireEventType = Schema.Literal("deposit.confirmed", "deposit.reverted", "sweep.succeeded", "sweep.failed", "sweep.cancelled")
export const WireDeliveryStatus = Schema.Literal("pending", "delivering", "delivered", "failed")

const payloadDescription = "Stored plaintext business object (never null): the DepositRecord for deposit.*, the sweep result body " +
  "for sweep.*; no encryption envelope members."

/**
 * The stored plaintext business object, exactly as every delivery encrypts it: the 24-field
 * DepositRecord for deposit events, the 11-field sweep result body for sweep events.
 */
// The JSON Schema is given outright: Schema.Unknown would emit an `$id` the document repeats.
export const EventPayload = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  jsonSchema: { type: "object", description: payloadDescription },
  description: payloadDescription
})

export const NotificationEventDetail = Schema.Struct({
  network: Network,
  id: ObjectId.annotations({ description: "Event ID; equals event_id in the payload. Not a deposit, round or attempt ID." }),
  event_type: WireEventType,
  status: WireDeliveryStatus.annotations({ description: "Delivery status only; never the business outcome." }),
  attempts: Count.pipe(Schema.lessThanOrEqualTo(20)).annotations({ description: "Attempts started in the current round (0 to 20), not cumulative." }),
  current_round: Round.annotations({ description: "Round number from 1; a re-push adds one." }),
  next_attempt: Schema.NullOr(Timestamp).annotations({ description: "Next attempt in the current round; null once the round ended." }),
  deadline_at: Timestamp.annotations({ description: "Deadline of the current round (its start + 24 h)." }),
  last_error: Schema.String.annotations({ description: "Latest stored delivery error; empty string if none." }),
  created_at: Timestamp.annotations({ description: "Original creation time; a re-push never resets it." }),
  delivered_at: Schema.NullOr(Timestamp).annotations({ description: "Successful delivery time; null while undelivered." }),
  payload: EventPayload
}).annotations({ identifier: "NotificationEvent", description: "Notification event detail; every member always present." })

export const DeliveryRoundItem = Schema.Struct({
  round: Round,
  url: Schema.String.annotations({ description: "Target fixed when the round started; empty until the dispatcher starts it, or when no usable configuration existed." }),
  started_at: Timestamp,
  deadline_at: Timestamp,
  ended_at: Schema.NullOr(Timestamp),
  outcome: Outcome,
  reason: Schema.String.annotations({ description: "Why the round ended failed; empty string if none." })
}).annotations({ identifier: "DeliveryRound" })

export const DeliveryAttemptItem = Schema.Struct({
  round: Round,
  attempt: Round.pipe(Schema.lessThanOrEqualTo(20)),
  url: Schema.String,
  started_at: Timestamp,
  ended_at: Schema.NullOr(Timestamp),
  duration_ms: Schema.NullOr(Count),
  http_status: Schema.NullOr(Schema.Int).annotations({ description: "HTTP status of the receiver's answer; null when none arrived (timeout, DNS, TLS, refused target)." }),
  response_excerpt: Schema.String.annotations({ description: "Start of the receiver's answer body; empty string if none." }),
  error: Schema.String.annotations({ description: "Why the attempt failed; empty string on success or while running." }),
  outcome: Outcome
}).annotations({ identifier: "DeliveryAttempt" })

const paging = { page: Schema.optional(Schema.String), page_size: Schema.optional(Schema.String) }

export const WebhookListParams = strict({ ...paging, event_type: Schema.optional(Schema.String), status: Schema.optional(Schema.String) })
export const RoundListParams = strict(paging)
export const AttemptListParams = strict({ ...paging, round: Schema.optional(Schema.String) })

export const WebhookList = Schema.Struct({
  network: Network,
  items: Schema.Array(NotificationEventDetail),
  total: Count,
  page: Schema.Int,
  page_size: Schema.Int
})

const deliveryList = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({ network: Network, event_id: ObjectId, items: Schema.Array(item), total: Count, page: Schema.Int, page_size: Schema.Int })

export const RoundList = deliveryList(DeliveryRoundItem)
export const AttemptList = deliveryList(DeliveryAttemptItem)

export const RedeliverRequest = strict({ request_id: RequestId })

const pagingRule = "page (>= 1, default 1) and page_size (1 to 100, default 20), absent or empty meaning the default, otherwise 400 " +
  "`invalid request: invalid pagination` (also for a page starting more than 100000 rows deep: (page - 1) * page_size). Any other or repeated query key is 400; a page past the last has items [] with the true total."

const eventRule = "The path ID is the event ID (event_id of the payload; not a deposit, round or attempt ID). An ID that is not a canonical " +
  "positive int64 is 400; an event that does not exist or belongs to another tenant or network is 404 RESOURCE_NOT_FOUND."

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("listEvents", "/open/v1/webhooks")
      .setUrlParams(WebhookListParams)
      .addSuccess(Ok(WebhookList))
      .annotate(OpenApi.Summary, "Notification list")
      .annotate(
        OpenApi.Description,
        "Notification events of the calling tenant and network, event ID descending. Each item is the full notification event detail, " +
          "payload included (the same object as GET /open/v1/webhooks/{id}). Filters, absent or empty meaning none: event_type (one of " +
          "deposit.confirmed, deposit.reverted, sweep.succeeded, sweep.failed, sweep.cancelled, else 400 `invalid request: event_type must " +
          "be one of ...`) and status (pending, delivering, delivered or failed, else 400 `invalid request: status must be one of ...`). " +
          pagingRule
      )
  )
  .add(
    HttpApiEndpoint.get("getEvent", "/open/v1/webhooks/:id")
      .setPath(Schema.Struct({ id: ObjectId }))
      .addSuccess(Ok(NotificationEventDetail))
      .annotate(OpenApi.Summary, "Notification detail")
      .annotate(
        OpenApi.Description,
        "The delivery state of one event and its stored payload. Any query, even a bare `?`, is 400. " + eventRule +
          " Reading never triggers a delivery or creates a round."
      )
  )
  .add(
    HttpApiEndpoint.get("listRounds", "/open/v1/webhooks/:id/rounds")
      .setPath(Schema.Struct({ id: ObjectId }))
      .setUrlParams(RoundListParams)
      .addSuccess(Ok(RoundList))
      .annotate(OpenApi.Summary, "Delivery rounds")
      .annotate(
        OpenApi.Description,
        "The event's delivery rounds, newest (highest round) first. Item: round (from 1), url (the target fixed when the round " +
          "started), started_at, deadline_at (start + 24 h), ended_at (null while running), outcome (delivered, failed, or null while " +
          "running), reason (why it failed; empty if none). The current round always appears: while the dispatcher has not yet " +
          "started it (a new event, or a re-push waiting for its first attempt) it is listed with url \"\", started_at the time the " +
          "round was opened, ended_at and outcome null. " + eventRule + " " + pagingRule
      )
  )
  .add(
    HttpApiEndpoint.get("listAttempts", "/open/v1/webhooks/:id/attempts")
      .setPath(Schema.Struct({ id: ObjectId }))
      .setUrlParams(AttemptListParams)
      .addSuccess(Ok(AttemptList))
      .annotate(OpenApi.Summary, "Delivery attempts")
      .annotate(
        OpenApi.Description,
        "The event's delivery attempts, newest first (round descending, then attempt descending). Item: round, attempt (1 to 20 " +
          "within its round), url, started_at, ended_at (null while running), duration_ms (null while running), http_status (null " +
          "when no HTTP answer arrived), response_excerpt (start of the answer body; empty if none), error (empty if none), outcome " +
          "(delivered, failed, or null while running). round: only that round's attempts (positive integer; empty means all, " +
          "otherwise 400 `invalid request: round must be a positive integer`). " + eventRule + " " + pagingRule
      )
  )
  .add(
    HttpApiEndpoint.post("redeliver", "/open/v1/webhooks/:id/redeliver")
      .setPath(Schema.Struct({ id: ObjectId }))
      .setPayload(RedeliverRequest)
      .addSuccess(Ok(NotificationEventDetail))
      .annotate(OpenApi.Summary, "Re-push an abnormal notification")
      .annotate(
        OpenApi.Description,
        "Starts a new delivery round, accepted only while status is failed (otherwise 409 BUSINESS_CONFLICT, not saved with the " +
          "request_id, so the same request_id may be retried once the round has failed). The new round: current_round + 1, attempts 0, " +
          "status pending, next_attempt now, deadline_at now + 24 h, last_error empty; its URL is read from the webhook configuration " +
          "current when the dispatcher starts it. Event ID, payload and created_at never change. Success data: the event detail as " +
          "saved. Idempotent by request_id over (request_id, path ID): a retry returns that saved detail even after the state moved " +
          "on; the same request_id for another event is 409 IDEMPOTENCY_CONFLICT. " + eventRule
      )
  )
  .middleware(Authenticated)
{}
