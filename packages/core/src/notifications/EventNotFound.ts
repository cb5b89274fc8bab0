import { Schema } from "effect"

/** No event with this ID in the caller's scope: absent, another tenant's, or the other network's alike. */
export class EventNotFound extends Schema.TaggedError<EventNotFound>()("EventNotFound", {
  eventId: Schema.String
}) {
  override get message() {
    return `event ${this.eventId} not found`
  }
}
