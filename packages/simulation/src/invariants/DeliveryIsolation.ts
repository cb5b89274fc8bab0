import type { ReceivedWebhook } from "../Receiver.js"
import { receiverHost } from "../ReceiverTargets.js"
import type { Snapshot } from "../Snapshot.js"
import type { WorkloadLedger } from "../workload/WorkloadLedger.js"

/** The URLs the workload gives a scope: `https://<receiver>/hooks/<tenant name>/<network>/v<n>`. */
const urlPattern = new RegExp(`^https://${receiverHost.replaceAll(".", "\\.")}/hooks/([^/]+)/([^/]+)/v[0-9]+$`)

/**
 * Every POST the receiver got belongs to the event's tenant and network: the app it names is
 * the one the operator handed the workload for that scope (so the envelope, which the receiver
 * opens with the named app's key, was sealed with that scope's key), and the URL it was sent to
 * is one the workload set for that scope. The event's scope is its stored row's.
 */
export const deliveryIsolation = (
  snapshot: Snapshot,
  received: ReadonlyArray<ReceivedWebhook>,
  ledger: Pick<WorkloadLedger, "scope">
): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const events = new Map(snapshot.events.map((e) => [e.id, e]))
  for (const webhook of received) {
    const event = events.get(webhook.eventId)
    if (event === undefined) continue // ReceivedMatchesStored reports it
    const scope = ledger.scope(event.tenantId, event.network)
    const figures = `request for event ${event.id} of tenant ${event.tenantId} on ${event.network} to ${webhook.url} as app ${webhook.appId}`
    if (scope === undefined) {
      violations.push(`${figures}: the workload created no such scope`)
      continue
    }
    if (webhook.appId !== scope.appId) violations.push(`${figures}: the scope's app is ${scope.appId}`)
    const url = urlPattern.exec(webhook.url)
    if (url === null || url[1] !== scope.tenantName || url[2] !== event.network) {
      violations.push(`${figures}: not a URL of ${scope.tenantName} on ${event.network}`)
    }
  }
  return violations
}
