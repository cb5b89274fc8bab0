import { readFileSync } from "node:fs"
import { afterAll, afterEach, beforeAll } from "@effect/vitest"
import { http, HttpResponse } from "msw"
import { setupServer, type SetupServer } from "msw/node"

/**
 * A fake CatFee for tests: msw answers the adapter's real fetch requests with the documented
 * reply shapes (fixtures/catfee, shipped with the package) and keeps every request it saw, headers included,
 * so tests can check the signature and what was sent.
 */

export const catFeeUrl = "https://catfee.test"

export const fixtureText = (name: string): string =>
  readFileSync(new URL(`../../fixtures/catfee/${name}`, import.meta.url), "utf8")

export interface SeenRequest {
  readonly method: string
  /** Path with the query string, as sent. */
  readonly requestPath: string
  readonly headers: Headers
}

/** A reply: fixture text, a Response, or a function of the request returning either. */
export type Reply = string | Response | ((request: SeenRequest) => string | Response | Promise<string | Response>)

export const json = (text: string, status = 200) => new HttpResponse(text, { status, headers: { "content-type": "application/json" } })

/** An msw server for the current test file; any request without a handler fails the test. */
export const useCatFeeServer = () => {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())
  return server
}

/** Answers `method path` (path without the query; `*` for any) with `replies` in turn, the last one repeated. */
export const makeCatFee = (server: SetupServer) => {
  const seen: Array<SeenRequest> = []
  const on = (method: "GET" | "POST", path: string, ...replies: ReadonlyArray<Reply>) => {
    let i = 0
    const handler = method === "GET" ? http.get : http.post
    server.use(handler(`${catFeeUrl}${path}`, async ({ request }) => {
      const url = new URL(request.url)
      const entry = { method: request.method, requestPath: url.pathname + url.search, headers: request.headers }
      seen.push(entry)
      const reply = replies[Math.min(i++, replies.length - 1)]!
      const value = typeof reply === "function" ? await reply(entry) : reply
      return typeof value === "string" ? json(value) : value
    }))
  }
  return { seen, on }
}
