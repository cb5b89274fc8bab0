import { Schema } from "effect"

/** A re-push asked for while the event's current round has not ended in `failed` (the contract). */
export class EventNotRedeliverable extends Schema.TaggedError<EventNotRedeliverable>()("EventNotRedeliverable", {
  eventId: Schema.String,
  status: Schema.String
}) {
  override get message() {
    return `conflict: event ${this.eventId} is ${this.status}; only a failed notification can be redelivered`
  }
}
