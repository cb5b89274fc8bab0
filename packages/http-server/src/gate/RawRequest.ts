import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Data, Effect } from "effect"

export class BodyTooLarge extends Data.TaggedError("BodyTooLarge") {}
export class BodyUnreadable extends Data.TaggedError("BodyUnreadable") {}

/** Reads the raw body bytes (the signature covers them), stopping past `limit`. */
export const readRawBody = (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.async<Uint8Array, BodyTooLarge | BodyUnreadable>((resume) => {
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    const declared = Number(source.headers["content-length"] ?? "0")
    if (Number.isFinite(declared) && declared > limit) {
      resume(Effect.fail(new BodyTooLarge()))
      return
    }
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (result: Effect.Effect<Uint8Array, BodyTooLarge | BodyUnreadable>) => {
      if (done) return
      done = true
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      resume(result)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) finish(Effect.fail(new BodyTooLarge()))
      else chunks.push(chunk)
    }
    const onEnd = () => finish(Effect.succeed(new Uint8Array(Buffer.concat(chunks))))
    const onError = () => finish(Effect.fail(new BodyUnreadable()))
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    return Effect.sync(() => {
      done = true
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
    })
  })

/** How many times each header name (lower case) was sent; Node merges or drops repeats. */
export const headerCounts = (request: HttpServerRequest.HttpServerRequest): ReadonlyMap<string, number> => {
  const raw = NodeHttpServerRequest.toIncomingMessage(request).rawHeaders
  const counts = new Map<string, number>()
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return counts
}

/** The header's single value as sent, or undefined when it is absent or repeated. */
export const singleHeader = (request: HttpServerRequest.HttpServerRequest, counts: ReadonlyMap<string, number>, name: string) =>
  counts.get(name) === 1 ? NodeHttpServerRequest.toIncomingMessage(request).headers[name] as string | undefined : undefined

/** The request's target split into path and raw query, keeping whether a `?` was present. */
export const splitTarget = (url: string) => {
  const mark = url.indexOf("?")
  return mark === -1
    ? { path: url, hasQuery: false, rawQuery: "" }
    : { path: url.slice(0, mark), hasQuery: true, rawQuery: url.slice(mark + 1) }
}

/**
 * Makes the request answer `text`/`json` from the bytes the gate already read, so the HttpApi
 * payload decoder does not wait on the consumed socket. The request object itself is primed
 * (not wrapped): the platform marks the request it finds in context as handled and checks
 * that mark on the original, so a wrapper would get its response written twice.
 */
export const primeBufferedBody = (request: HttpServerRequest.HttpServerRequest, raw: Uint8Array) => {
  // `textEffect` is the platform's own memo of the body text (pinned @effect/platform-node).
  ;(request as unknown as { textEffect: Effect.Effect<string> }).textEffect = Effect.succeed(new TextDecoder().decode(raw))
}

/**
 * The contract reads a `+` in the query as a plus sign (it stays one in the canonical query that
 * is signed), while the platform's router decodes it as a space, as HTML forms do. Writing it as
 * `%2B` in the URL the router reads keeps the handlers' parameters equal to what was signed
 * (`2026-01-01T08:00:00+08:00` stays a valid time). Changed in place, like `primeBufferedBody`,
 * because the platform expects the original request object in context.
 */
export const keepQueryPlusSigns = (request: HttpServerRequest.HttpServerRequest, path: string, rawQuery: string) => {
  if (rawQuery.includes("+")) (request as unknown as { url: string }).url = `${path}?${rawQuery.replaceAll("+", "%2B")}`
}

/**
 * The client's address: the last entry of `header` when a trusted proxy sets it (the entry that
 * proxy added; earlier ones are the client's to write), else the connection's peer.
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, header: string): string => {
  const source = NodeHttpServerRequest.toIncomingMessage(request)
  if (header !== "") {
    const value = source.headers[header]
    const text = Array.isArray(value) ? value.at(-1) : value
    const last = text?.split(",").at(-1)?.trim()
    if (last !== undefined && last !== "") return last
  }
  return source.socket?.remoteAddress ?? ""
}
