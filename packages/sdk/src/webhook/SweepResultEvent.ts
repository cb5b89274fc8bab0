import { SweepResultBody } from "@collector/api"
import { Schema } from "effect"

/**
 * The 11-field sweep result body of `sweep.succeeded`, `sweep.failed` and `sweep.cancelled`
 * (the contract's events, docs/notifications.md): the schema the server writes it by, plus the
 * contract's two cross-field rules, so a body that contradicts itself is refused instead of
 * booked with the wrong outcome.
 */
export const SweepResultEvent = SweepResultBody.pipe(
  Schema.filter((body) => body.event_type === `sweep.${body.status}` || "status must match the event type suffix"),
  Schema.filter((body) => body.event_id === body.task_id || "event_id must equal task_id for sweep events")
)
export type SweepResultEvent = typeof SweepResultEvent.Type
