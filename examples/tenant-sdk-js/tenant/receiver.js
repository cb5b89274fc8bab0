// The tenant's webhook receiver: node:https and the SDK's ready listener. It verifies and opens
// each delivery, books each event once and each deposit revision in order (the store), and answers
// as the contract expects. Plain JavaScript; nothing but @collector/sdk and node built-ins.
import { MemoryWebhookStore, nodeWebhookHandler } from "@collector/sdk"
import { createServer } from "node:https"

/**
 * Starts the receiver on HTTPS (`tls`: { cert, key }); `ledger` books what arrives.
 * Returns { url, outcomes, close }. The memory store is for this demo: production keeps booked
 * events and revisions in its database (docs/sdk.md has a PostgreSQL store).
 */
export const startReceiver = async ({ appId, webhookKey, ledger, tls, path = "/webhooks/collector" }) => {
  const outcomes = []
  const listener = nodeWebhookHandler({
    appId,
    webhookKey,
    store: new MemoryWebhookStore(),
    onDeposit: (deposit) => ledger.bookDeposit(deposit),
    onSweep: (sweep) => ledger.bookSweep(sweep),
    onHandled: (handled) => outcomes.push({ outcome: handled.outcome, status: handled.status, event: handled.event })
  })
  const server = createServer(tls, (request, response) => {
    if (new URL(request.url ?? "/", "https://receiver").pathname !== path) {
      response.writeHead(404).end()
      return
    }
    listener(request, response)
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `https://127.0.0.1:${server.address().port}${path}`,
    outcomes,
    close: () => new Promise((resolve) => server.close(resolve))
  }
}
