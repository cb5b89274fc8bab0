/**
 * Example webhook receiver for the collector service, on plain node:http / node:https.
 *
 *   WEBHOOK_KEY=<base64 webhook_key> APP_ID=<app_id> PORT=8443 \
 *   TLS_CERT_FILE=cert.pem TLS_KEY_FILE=key.pem npx tsx --conditions=@collector/source docs/examples/webhook-receiver.ts
 *
 * The service delivers only over https, to port 443 of a public address: either give
 * TLS_CERT_FILE / TLS_KEY_FILE, or run without them behind a TLS-terminating proxy. A receiver on
 * a private or loopback address or on another port (8443 above) is reached only where the
 * service's operator set WEBHOOK_ALLOW_PRIVATE_TARGETS=true, and its certificate must still be
 * trusted (WEBHOOK_EXTRA_CA_FILE for a self-signed one): see docs/notifications-receiver.md,
 * "A receiver on your own machine or network". WEBHOOK_PATH defaults to /webhooks/collector.
 *
 * Bookings here go to an in-memory list and the stores are the SDK's in-memory ones, so a
 * restart forgets what was booked. A real receiver books into its database and provides
 * persistent `WebhookEventStore` and `DepositRevisionStore` layers instead (see
 * docs/notifications-receiver.md).
 */
import {
  DepositRevisionStore,
  handleWebhook,
  type DepositEvent,
  type SweepResultEvent,
  type WebhookResponse,
  WebhookEventStore,
  webhookKeyBytes
} from "@collector/sdk"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"

export interface ReceiverOptions {
  readonly webhookKey: Redacted.Redacted<string>
  readonly appId: string
  readonly port: number
  readonly host?: string
  readonly path?: string
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer }
}

export interface RunningReceiver {
  readonly url: string
  /** What this example booked, in order: one entry per applied deposit revision or sweep result. */
  readonly booked: ReadonlyArray<DepositEvent | SweepResultEvent>
  readonly close: () => Promise<void>
}

// Deliveries are a few hundred bytes; anything far larger is not one and is not buffered.
const maxBodyBytes = 64 * 1024

const readBody = (request: IncomingMessage): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBodyBytes) {
        resolve(undefined)
        request.resume()
        return
      }
      chunks.push(chunk)
    })
    request.on("end", () => resolve(size > maxBodyBytes ? undefined : Buffer.concat(chunks)))
    request.on("error", reject)
  })

const send = (response: ServerResponse, answer: WebhookResponse) => {
  response.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) })
  response.end(answer.body)
}

const plain = (status: number, message: string): WebhookResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ code: status, message })
})

export const startReceiver = async (options: ReceiverOptions): Promise<RunningReceiver> => {
  // Fail at start-up, not at the first delivery, when the key is not base64 of 32 bytes.
  webhookKeyBytes(options.webhookKey)
  const path = options.path ?? "/webhooks/collector"
  const booked: Array<DepositEvent | SweepResultEvent> = []
  // One runtime for the whole server, so every request shares the same two stores.
  const runtime = ManagedRuntime.make(Layer.merge(WebhookEventStore.layerMemory, DepositRevisionStore.layerMemory))

  const handlers = {
    // Replace with a booking in your database. Credit only `confirmed` deposits; a `reverted`
    // revision undoes the credit of the same deposit `id`.
    onDeposit: (event: DepositEvent) => Effect.sync(() => void booked.push(event)),
    onSweep: (event: SweepResultEvent) => Effect.sync(() => void booked.push(event))
  }

  const onRequest = async (request: IncomingMessage, response: ServerResponse) => {
    if (new URL(request.url ?? "/", "http://receiver").pathname !== path) return send(response, plain(404, "not found"))
    if (request.method !== "POST") return send(response, plain(405, "method not allowed"))
    const body = await readBody(request)
    if (body === undefined) return send(response, plain(413, "body too large"))
    const handled = await runtime.runPromise(
      handleWebhook({ body, headers: request.headers, webhookKey: options.webhookKey, appId: options.appId }, handlers)
    )
    // Log the outcome, never the body or the key.
    if (handled.outcome === "rejected") console.warn(`webhook rejected: ${handled.rejected.reason}`)
    else if (handled.outcome === "failed") console.error("webhook booking failed; the service will deliver again")
    else console.info(`webhook ${handled.event.event_type} ${handled.event.event_id}: ${handled.outcome}`)
    send(response, handled.response)
  }

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    onRequest(request, response).catch(() => send(response, plain(500, "receiver error")))
  }
  const server: Server = options.tls === undefined ? createHttpServer(listener) : createHttpsServer(options.tls, listener)
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? "0.0.0.0", resolve))
  const { port } = server.address() as AddressInfo
  const host = options.host ?? "localhost"
  return {
    url: `${options.tls === undefined ? "http" : "https"}://${host}:${port}${path}`,
    booked,
    close: async () => {
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
      await runtime.dispose()
    }
  }
}

const required = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value === "") throw new Error(`${name} is required`)
  return value
}

const main = async () => {
  const certFile = process.env.TLS_CERT_FILE
  const keyFile = process.env.TLS_KEY_FILE
  const receiver = await startReceiver({
    webhookKey: Redacted.make(required("WEBHOOK_KEY")),
    appId: required("APP_ID"),
    port: Number(process.env.PORT ?? "8080"),
    ...(process.env.WEBHOOK_PATH ? { path: process.env.WEBHOOK_PATH } : {}),
    ...(certFile && keyFile ? { tls: { cert: readFileSync(certFile), key: readFileSync(keyFile) } } : {})
  })
  console.info(`receiving webhooks at ${receiver.url}`)
  const stop = () => void receiver.close().then(() => process.exit(0))
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
