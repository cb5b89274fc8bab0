import { Amount, ObjectId } from "@collector/api"
import { Network } from "@collector/api"
import { Schema } from "effect"

/**
 * The 11-field sweep result body of `sweep.succeeded`, `sweep.failed` and `sweep.cancelled`
 * (the contract's events, docs/notifications.md). The two cross-field rules of the contract are checked too, so a
 * body that contradicts itself is refused instead of booked with the wrong outcome.
 */
export const SweepResultEvent = Schema.Struct({
  event_id: ObjectId,
  event_type: Schema.Literal("sweep.succeeded", "sweep.failed", "sweep.cancelled"),
  network: Network,
  task_id: ObjectId,
  wallet_id: ObjectId,
  amount: Amount,
  destination: Schema.String,
  txid: Schema.String,
  status: Schema.Literal("succeeded", "failed", "cancelled"),
  reason: Schema.String,
  actual_fee: Amount
}).pipe(
  Schema.filter((body) => body.event_type === `sweep.${body.status}` || "status must match the event type suffix"),
  Schema.filter((body) => body.event_id === body.task_id || "event_id must equal task_id for sweep events")
)
export type SweepResultEvent = typeof SweepResultEvent.Type
