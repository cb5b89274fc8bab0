import type { IncomingMessage, ServerResponse } from "node:http"
import { createWebhookHandler, type HandledWebhook, type WebhookHandlerOptions } from "./createWebhookHandler.js"
import { BodyTooLarge, readRawBody } from "./readRawBody.js"

export interface NodeWebhookOptions extends WebhookHandlerOptions {
  /** The largest body read, in bytes (default 1 MiB; a notification is a few kB). */
  readonly maxBodyBytes?: number
  /** Told of each delivery's outcome, after the answer is written. */
  readonly onHandled?: (handled: HandledWebhook) => void
}

const write = (response: ServerResponse, status: number, headers: Readonly<Record<string, string>>, body: string) => {
  response.writeHead(status, headers)
  response.end(body)
}

// Express and body parsers leave what they read on `request.body`: raw bytes are usable, a parsed object is not.
const alreadyRead = (request: IncomingMessage): { readonly bytes?: Uint8Array | string; readonly parsed: boolean } => {
  const body = (request as IncomingMessage & { body?: unknown }).body
  if (body === undefined) return { parsed: false }
  if (body instanceof Uint8Array || typeof body === "string") return { bytes: body, parsed: false }
  return { parsed: (request as IncomingMessage & { readableEnded?: boolean }).readableEnded === true || request.complete }
}

/**
 * A `node:http` request listener that receives webhooks: `http.createServer(nodeWebhookHandler(options))`,
 * or one route of an Express app (`app.post("/webhooks", expressWebhookHandler(options))`).
 * It reads the raw body itself (or takes `express.raw()`'s Buffer), so mount it before any JSON
 * body parser: the signature covers the bytes as sent.
 */
export const nodeWebhookHandler = (options: NodeWebhookOptions) => {
  const handle = createWebhookHandler(options)
  const limit = options.maxBodyBytes ?? 1024 * 1024
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== "POST") return write(response, 405, { allow: "POST", "content-type": "application/json" }, "{\"code\":405,\"message\":\"POST only\"}")
    const earlier = alreadyRead(request)
    if (earlier.parsed) {
      // A JSON parser ran first: the exact bytes are gone, so nothing can be verified.
      return write(response, 500, { "content-type": "application/json" }, "{\"code\":500,\"message\":\"webhook body was parsed before verification; mount the webhook handler before JSON body parsers\"}")
    }
    let body: Uint8Array | string
    try {
      body = earlier.bytes ?? await readRawBody(request, limit)
    } catch (error) {
      if (error instanceof BodyTooLarge) return write(response, 413, { "content-type": "application/json", connection: "close" }, "{\"code\":413,\"message\":\"body too large\"}")
      throw error
    }
    const handled = await handle(body, request.headers)
    write(response, handled.status, handled.headers, handled.body)
    options.onHandled?.(handled)
  }
}

/** The same listener as Express middleware (`(req, res, next)`); it answers every request it is given. */
export const expressWebhookHandler = (options: NodeWebhookOptions) => {
  const listener = nodeWebhookHandler(options)
  return (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void): void => {
    listener(request, response).catch(next)
  }
}
