import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectOk, header } from "../testing/Assertions.js"
import { type RawRequest, type RawResponse, send, signedHeaders } from "../testing/RawClient.js"
import { provisionTenant, requestToken, tokenTarget } from "../testing/Tenants.js"
import { CapturedLogs, ServerUrl, TestServerLive } from "../testing/TestServer.js"

interface LogLine {
  readonly message: string
  readonly logLevel: string
  readonly annotations: Record<string, unknown>
}

const parsedLines = Effect.map(CapturedLogs, ({ lines }) => lines.map((line) => JSON.parse(line) as LogLine))

/** The `request` log lines carrying this response's trace id. */
const requestLines = (res: RawResponse) =>
  Effect.map(parsedLines, (lines) => lines.filter((l) => l.message === "request" && l.annotations.trace_id === header(res, "x-trace-id")))

const call = (req: RawRequest) => Effect.flatMap(ServerUrl, (url) => send(url, req))

layer(TestServerLive(), { excludeTestServices: true })("request log", (it) => {
  it.effect("every captured log line is one JSON object", () =>
    Effect.gen(function*() {
      yield* call({ method: "GET", target: "/healthz" })
      const { lines } = yield* CapturedLogs
      expect(lines.length).toBeGreaterThan(0)
      for (const line of lines) {
        expect(line).not.toContain("\n")
        expect(typeof JSON.parse(line)).toBe("object")
      }
    }))

  it.effect("writes exactly one line per request with trace id, app id, method, route, status and duration", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const cases: ReadonlyArray<readonly [RawResponse, Record<string, unknown>]> = [
        [yield* requestToken(url, app), { app_id: app.appId, method: "POST", route: tokenTarget, status: 200 }],
        [yield* requestToken(url, { ...app, secret: "wrong" }), { app_id: app.appId, method: "POST", route: tokenTarget, status: 401 }],
        [yield* call({ method: "POST", target: `${tokenTarget}?a=1` }), { app_id: "", method: "POST", route: tokenTarget, status: 400 }],
        [yield* call({ method: "GET", target: "/healthz" }), { app_id: "", method: "GET", route: "/healthz", status: 200 }],
        [yield* call({ method: "GET", target: "/openapi.json" }), { app_id: "", method: "GET", route: "/openapi.json", status: 200 }],
        [yield* call({ method: "GET", target: "/nope" }), { app_id: "", method: "GET", route: "", status: 404 }],
        [yield* call({ method: "DELETE", target: "/healthz" }), { app_id: "", method: "DELETE", route: "", status: 405 }]
      ]
      for (const [res, expected] of cases) {
        expect(res.status).toBe(expected.status)
        const lines = yield* requestLines(res)
        expect(lines, `log lines for ${JSON.stringify(expected)}`).toHaveLength(1)
        const { annotations, logLevel } = lines[0]!
        expect(logLevel).toBe("INFO")
        expect(annotations).toMatchObject({ ...expected, trace_id: header(res, "x-trace-id") })
        expect(annotations.trace_id).toMatch(/^[0-9a-f]{32}$/)
        expect(Number.isInteger(annotations.duration_ms)).toBe(true)
        expect(annotations.duration_ms).toBeGreaterThanOrEqual(0)
        expect(annotations.duration_ms).toBeLessThan(10_000)
      }
    }))

  it.effect("logs no claimed app id that is not a plain number", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const res = yield* call({
        method: "POST",
        target: tokenTarget,
        headers: [["x-app-id", `${app.appId}\u0009injected`], ["x-timestamp", "1"], ["x-sign", "0".repeat(64)]]
      })
      expect(res.status).toBe(401)
      const lines = yield* requestLines(res)
      expect(lines.map((l) => l.annotations.app_id)).toEqual([""])
    }))

  it.effect("never writes an app secret, webhook key, access token or X-Sign value", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const tenant = yield* provisionTenant(["nile", "main"])
      const secrets: Array<string> = tenant.apps.flatMap((a) => [a.secret, a.webhookKey])
      for (const app of tenant.apps) {
        const headers = signedHeaders(app, { method: "POST", target: tokenTarget })
        secrets.push(headers.find(([k]) => k === "x-sign")![1])
        const data = expectOk(yield* send(url, { method: "POST", target: tokenTarget, headers }))
        secrets.push(data.access_token)
        // Requests that are refused, including ones that carry the secret or the token themselves.
        const bad = signedHeaders({ ...app, secret: "wrong" }, { method: "POST", target: tokenTarget })
        secrets.push(bad.find(([k]) => k === "x-sign")![1])
        yield* send(url, { method: "POST", target: tokenTarget, headers: bad })
        yield* send(url, { method: "POST", target: tokenTarget, headers: [...headers, ["x-app-secret", app.secret]] })
        yield* send(url, { method: "POST", target: tokenTarget, headers: [...headers, ["authorization", `Bearer ${data.access_token}`]] })
        yield* send(url, { method: "POST", target: tokenTarget, body: app.secret, headers })
        yield* send(url, { method: "GET", target: `/healthz?secret=${app.secret}&token=${data.access_token}` })
        yield* send(url, { method: "GET", target: `/nope/${app.secret}` })
      }
      const { lines } = yield* CapturedLogs
      expect(lines.length).toBeGreaterThan(10)
      const all = lines.join("\n")
      // Per app: its secret, its webhook key, a good and a bad X-Sign, and an access token.
      expect(secrets).toHaveLength(10)
      for (const secret of secrets) {
        expect(secret.length).toBeGreaterThan(20)
        expect(all).not.toContain(secret)
      }
    }))
})
