// TENANT CODE. The webhook receiver on node:http (node:https when given a certificate).
//
// Each delivery is a POST whose body is an AES-256-GCM envelope sealed with the app's webhook
// key. `handleWebhook` from the SDK does the whole contract (docs/notifications-receiver.md):
//   1. open and verify it (content type, X-App-Id, envelope, decryption, payload, X-Event-Id/-Type),
//   2. de-duplicate by app ID + event_id (an event comes again after a lost acknowledgement),
//   3. apply deposit revisions: book only a revision above the highest booked for the deposit,
//   4. choose the answer: 200 {"code":0} for booked, duplicate or older revision (all received);
//      400 for a forged or unreadable delivery; 409 while the same event is being booked by another
//      request; 500 when the booking failed. Anything but the 200 makes the service deliver again.
import { handleWebhook, webhookKeyBytes } from "@collector/sdk"
import { createServer as createHttpServer } from "node:http"
import { createServer as createHttpsServer } from "node:https"

// Deliveries are a few hundred bytes; anything far larger is not one and is not buffered.
const maxBodyBytes = 64 * 1024

const readBody = (request) =>
  new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    request.on("data", (chunk) => {
      size += chunk.length
      if (size <= maxBodyBytes) chunks.push(chunk)
    })
    request.on("end", () => resolve(size > maxBodyBytes ? undefined : Buffer.concat(chunks)))
    request.on("error", reject)
  })

const send = (response, { status, headers, body }) => {
  response.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) })
  response.end(body)
}

const plain = (status, message) => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ code: status, message })
})

/**
 * Starts the receiver. `ledger` books what arrives (ledger.js). `tls`: { cert, key } to serve
 * HTTPS here; without it, serve behind a TLS-terminating proxy (the service delivers to https only).
 * Returns { url, deliveries, close }: `deliveries` lists every answered delivery's outcome.
 */
export const startReceiver = async ({ appId, webhookKey, ledger, port = 8080, host = "0.0.0.0", path = "/webhooks/collector", tls, log = console.log }) => {
  // Fail at start-up, not at the first delivery, when the key is not base64 of 32 bytes.
  webhookKeyBytes(webhookKey)
  const deliveries = []

  const handlers = {
    // Called only for a deposit revision above the highest booked for its `id`.
    onDeposit: (event) => ledger.bookDeposit(event, "webhook"),
    onSweep: (event) => ledger.bookSweep(event)
  }

  const onRequest = async (request, response) => {
    if (new URL(request.url ?? "/", "http://receiver").pathname !== path) return send(response, plain(404, "not found"))
    if (request.method !== "POST") return send(response, plain(405, "method not allowed"))
    const body = await readBody(request)
    if (body === undefined) return send(response, plain(413, "body too large"))
    // Never fails: every outcome carries the response to write back as it is.
    const handled = await ledger.run(handleWebhook({ body, headers: request.headers, webhookKey, appId }, handlers))
    const { event } = handled
    deliveries.push({
      outcome: handled.outcome,
      status: handled.response.status,
      eventId: event?.event_id,
      eventType: event?.event_type,
      depositId: event?.event_type?.startsWith("deposit.") ? event.id : undefined,
      revision: event?.revision,
      reason: handled.rejected?.reason
    })
    // Log the outcome, never the body or the key.
    if (handled.outcome === "rejected") log(`webhook rejected (${handled.rejected.reason}): HTTP ${handled.response.status}`)
    else if (handled.outcome === "failed") log(`webhook booking failed, the service will deliver again: HTTP ${handled.response.status}`)
    else {
      const what = event.event_type.startsWith("deposit.") ? `deposit ${event.id} revision ${event.revision}` : `sweep ${event.task_id}`
      log(`webhook ${event.event_type} event ${event.event_id} (${what}): ${handled.outcome}, HTTP ${handled.response.status}`)
    }
    send(response, handled.response)
  }

  const listener = (request, response) => {
    onRequest(request, response).catch(() => send(response, plain(500, "receiver error")))
  }
  const server = tls === undefined ? createHttpServer(listener) : createHttpsServer(tls, listener)
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, resolve)
  })
  const bound = server.address().port
  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host
  return {
    url: `${tls === undefined ? "http" : "https"}://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${bound}${path}`,
    deliveries,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        // The service keeps its connections open between deliveries; drop them so close ends.
        server.closeAllConnections()
      })
  }
}
