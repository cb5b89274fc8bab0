import { Schema } from "effect"

/**
 * A webhook URL that may not be used: malformed, against the URL rules, unresolvable, or
 * resolving to a non-public address. `reason` is written for the tenant and for `last_error`,
 * so it names the rule that failed and never includes anything but the URL's own host; `detail`
 * is for the operator's log alone (what the resolver answered: an internal address is the
 * operator's network, not the tenant's business).
 */
export class WebhookUrlRejected extends Schema.TaggedError<WebhookUrlRejected>()("WebhookUrlRejected", {
  reason: Schema.String,
  detail: Schema.optional(Schema.String)
}) {
  override get message() {
    return this.reason
  }
}
