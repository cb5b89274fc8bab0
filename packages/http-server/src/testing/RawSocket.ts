import { Deferred, Effect } from "effect"
import { connect, type Socket } from "node:net"
import type { RawResponse } from "./RawClient.js"

/** Parses one HTTP/1.1 response from the bytes received so far, or undefined if incomplete. */
const parseResponse = (data: Buffer, closed: boolean): RawResponse | undefined => {
  const end = data.indexOf("\r\n\r\n")
  if (end === -1) return undefined
  const [statusLine, ...lines] = data.subarray(0, end).toString("latin1").split("\r\n")
  const headers: Record<string, string | Array<string>> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    const prev = headers[name]
    headers[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value]
  }
  const length = headers["content-length"]
  const body = data.subarray(end + 4)
  if (typeof length === "string" && body.length < Number(length)) return undefined
  if (length === undefined && !closed) return undefined
  const text = (typeof length === "string" ? body.subarray(0, Number(length)) : body).toString("utf8")
  let json: unknown = undefined
  try {
    json = JSON.parse(text)
  } catch {
    // Not JSON.
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, text, json }
}

export interface OpenSocket {
  readonly socket: Socket
  /** Resolves with the first complete response on this connection. */
  readonly response: Effect.Effect<RawResponse>
  /** Resolves when the server closes (or resets) the connection. */
  readonly closed: Effect.Effect<void>
}

/**
 * A raw TCP connection that writes `bytes` and then keeps the socket open without writing
 * anything else; closed when the scope closes. For requests a normal client cannot send, such
 * as a body that never arrives. `localAddress` (a loopback address such as 127.0.0.2) makes the
 * connection come from another client address.
 */
export const openRawSocket = (baseUrl: string, bytes: string | Buffer, options: { readonly localAddress?: string } = {}) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const url = new URL(baseUrl)
      const response = yield* Deferred.make<RawResponse>()
      const closed = yield* Deferred.make<void>()
      const socket = yield* Effect.async<Socket, Error>((resume) => {
        const s = connect({ host: url.hostname, port: Number(url.port), ...options }, () => resume(Effect.succeed(s)))
        s.once("error", (e) => resume(Effect.fail(e)))
      })
      let received = Buffer.alloc(0)
      const check = (isClosed: boolean) => {
        const parsed = parseResponse(received, isClosed)
        if (parsed !== undefined) Deferred.unsafeDone(response, Effect.succeed(parsed))
      }
      socket.on("data", (chunk: Buffer) => {
        received = Buffer.concat([received, chunk])
        check(false)
      })
      socket.on("error", () => {})
      socket.on("close", () => {
        check(true)
        Deferred.unsafeDone(closed, Effect.void)
      })
      socket.write(bytes)
      return { socket, response: Deferred.await(response), closed: Deferred.await(closed) } satisfies OpenSocket
    }),
    ({ socket }) => Effect.sync(() => socket.destroy())
  )

/**
 * The head of a request whose declared body never arrives: `Content-Length` says `declared`
 * bytes and none are sent, so the server waits on the body while holding its slot.
 */
export const slowRequestHead = (
  baseUrl: string,
  options: { readonly method?: string; readonly target?: string; readonly declared?: number; readonly headers?: ReadonlyArray<readonly [string, string]> } = {}
) => {
  const url = new URL(baseUrl)
  const lines = [
    `${options.method ?? "POST"} ${options.target ?? "/open/v1/auth/token"} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Length: ${options.declared ?? 10}`,
    ...(options.headers ?? []).map(([k, v]) => `${k}: ${v}`)
  ]
  return lines.join("\r\n") + "\r\n\r\n"
}

/**
 * Signature headers of a known app, current, with a signature that will not verify: what a
 * request needs to pass the header checks and reach the body read, where the signature is checked.
 */
export const unverifiedSignature = (appId: string): ReadonlyArray<readonly [string, string]> => [
  ["X-App-Id", appId],
  ["X-Timestamp", String(Math.floor(Date.now() / 1000))],
  ["X-Sign", "0".repeat(64)]
]
