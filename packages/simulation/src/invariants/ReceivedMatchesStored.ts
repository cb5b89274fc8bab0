import type { ReceivedWebhook } from "../Receiver.js"
import type { Snapshot } from "../Snapshot.js"

/**
 * What the receiver decrypted is, byte for byte, the stored payload of the event it names, with
 * the event's type: a delivery never carries anything but the event's own record.
 */
export const receivedMatchesStored = (snapshot: Snapshot, received: ReadonlyArray<ReceivedWebhook>): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const events = new Map(snapshot.events.map((e) => [e.id, e]))
  for (const webhook of received) {
    const event = events.get(webhook.eventId)
    const figures = `request for event ${webhook.eventId} (${webhook.eventType}) to app ${webhook.appId} at ${webhook.at}`
    if (event === undefined) {
      violations.push(`${figures}: no such event is stored`)
    } else if (webhook.payload === null) {
      violations.push(`${figures}: the envelope did not open with the app's webhook key`)
    } else if (webhook.payload !== event.payload) {
      violations.push(`${figures}: decrypted ${webhook.payload}, stored ${event.payload}`)
    } else if (webhook.eventType !== event.eventType) {
      violations.push(`${figures}: the stored event is ${event.eventType}`)
    }
  }
  return violations
}
