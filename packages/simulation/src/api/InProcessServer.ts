import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { IncomingMessage, type ServerResponse } from "node:http"

/** A request as it arrives at the server: method, target, header lines and the body's bytes. */
export interface WireRequest {
  readonly method: "GET" | "POST"
  readonly target: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: Uint8Array
}

/** What the server wrote back: the status and the body's text. */
export interface WireResponse {
  readonly status: number
  readonly body: string
}

type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void

/** The client's address every request comes from (the gate budgets unauthenticated requests by it). */
const clientAddress = "198.51.100.7"

/**
 * A Node request without a socket: the headers as sent (repeats kept in `rawHeaders`, as the gate
 * counts them), the body pushed whole, read by the gate as from a connection.
 */
const incoming = (request: WireRequest): IncomingMessage => {
  // The socket as far as Node's request reads it: the peer's address (never destroyed: none is open).
  const message = new IncomingMessage({ remoteAddress: clientAddress, destroyed: true } as never)
  message.method = request.method
  message.url = request.target
  message.httpVersion = "1.1"
  const raw: Array<string> = ["host", "api.simulated"]
  for (const [name, value] of request.headers) raw.push(name, value)
  if (request.body.length > 0) raw.push("content-length", String(request.body.length))
  message.rawHeaders = raw
  const headers: Record<string, string> = {}
  for (let i = 0; i < raw.length; i += 2) headers[raw[i]!.toLowerCase()] = raw[i + 1]!
  message.headers = headers
  if (request.body.length > 0) message.push(Buffer.from(request.body))
  message.push(null)
  // Whole as sent: read to its end, the request was not aborted.
  message.complete = true
  return message
}

/**
 * The response side of a Node request, as far as the platform writes it (`writeHead`, `end`):
 * it hands the status and text to `done` and never touches a socket.
 */
const outgoing = (done: (response: WireResponse) => void) => {
  let status = 0
  const response = {
    writableEnded: false,
    headersSent: false,
    on: () => response,
    once: () => response,
    writeHead: (code: number) => {
      status = code
      response.headersSent = true
      return response
    },
    end: (body?: unknown, callback?: () => void) => {
      response.writableEnded = true
      const text = body === undefined || typeof body === "function" ? "" : typeof body === "string" ? body : Buffer.from(body as Uint8Array).toString("utf8")
      done({ status, body: text })
      const finished = typeof body === "function" ? body : callback
      if (typeof finished === "function") queueMicrotask(() => (finished as () => void)())
      return response
    }
  }
  return response as unknown as ServerResponse
}

/**
 * The platform's HttpServer in this process, without a socket: whatever app is served on it
 * (the API's gate and handlers) gets each request of `send` through the platform's own Node
 * handler, on the run's runtime (its virtual clock and scheduler). Nothing leaves the process and
 * nothing waits on a timer, so a request replays exactly.
 */
export const make = Effect.sync(() => {
  let handler: NodeHandler | undefined
  const server = HttpServer.make({
    address: { _tag: "TcpAddress", hostname: "api.simulated", port: 443 },
    serve: (app, middleware) =>
      Effect.map(middleware === undefined ? NodeHttpServer.makeHandler(app) : NodeHttpServer.makeHandler(app, middleware as never), (h) => {
        handler = h
      })
  })
  const send = (request: WireRequest) =>
    Effect.async<WireResponse>((resume) => {
      if (handler === undefined) throw new Error("nothing is served on the in-process server")
      handler(incoming(request), outgoing((response) => resume(Effect.succeed(response))))
    })
  return { layer: Layer.succeed(HttpServer.HttpServer, server), send } as const
})

export type InProcessServer = Effect.Effect.Success<typeof make>
