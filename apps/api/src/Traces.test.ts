import { canonicalString, sign } from "@collector/api"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { type ReceivedSpan, startOtlpReceiver } from "../../../test-support/OtlpReceiver.js"
import { freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"
import { stopped } from "../../../test-support/ChildExit.js"

/** Every OTEL_* variable our processes read, unset: the developer's own must not leak into a test. */
const noOtel = {
  OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
  OTEL_EXPORTER_OTLP_PROTOCOL: undefined,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: undefined,
  OTEL_EXPORTER_OTLP_HEADERS: undefined,
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: undefined,
  OTEL_SERVICE_NAME: undefined,
  OTEL_RESOURCE_ATTRIBUTES: undefined,
  OTEL_SDK_DISABLED: undefined,
  OTEL_TRACES_EXPORTER: undefined,
  OTEL_BSP_SCHEDULE_DELAY: undefined
}

const tokenPath = "/open/v1/auth/token"

const requestToken = (baseUrl: string, appId: string, secret: string) => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  const canonical = canonicalString({ method: "POST", path: tokenPath, appId, timestamp, accessToken: "", canonicalQuery: "", body: new Uint8Array() })
  return fetch(`${baseUrl}${tokenPath}`, { method: "POST", headers: { "x-app-id": appId, "x-timestamp": timestamp, "x-sign": sign(secret, canonical) } })
}

/** An API process on a fresh database with a tenant made by the CLI; `otel` is its tracing. */
const apiWith = (otel: Record<string, string | undefined>) =>
  Effect.gen(function*() {
    const { url } = yield* freshDatabaseUrl
    const dataDir = resolve(repositoryRoot, ".data", `api-traces-test-${process.pid}-${Math.random().toString(36).slice(2)}`)
    const port = yield* Effect.promise(freePort)
    const env = { DATABASE_URL: Redacted.value(url), MASTER_KEY: Buffer.alloc(32, 7).toString("base64"), DATA_DIR: dataDir, LOG_FORMAT: "json", ...noOtel }
    const child = startTs("apps/api/src/main.ts", { ...env, ...otel, PORT: String(port) }, { output: "pipe" })
    let stdout = ""
    child.stdout!.on("data", (chunk) => (stdout += chunk))
    yield* Effect.addFinalizer(() => Effect.promise(() => stopped(child)).pipe(Effect.zipRight(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))))
    const baseUrl = `http://127.0.0.1:${port}`
    yield* Effect.promise(() => waitForHttp(`${baseUrl}/healthz`))
    const created = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "traced", "--networks", "nile", "--json"]))
    expect(created.code, created.stderr).toBe(0)
    const app = JSON.parse(created.stdout).apps[0] as { app_id: string; app_secret: string }
    const startLine = () => stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line)).find((line) => line.message === "api started")
    return { baseUrl, app, child, startLine } as const
  })

/** The spans of one trace, and whether each one's parent is in it (every span but the root). */
const traceOf = (spans: ReadonlyArray<ReceivedSpan>, traceId: string) => spans.filter((span) => span.traceId === traceId)

const ancestors = (trace: ReadonlyArray<ReceivedSpan>, span: ReceivedSpan): Array<ReceivedSpan> => {
  const parent = trace.find((candidate) => candidate.spanId === span.parentSpanId)
  return parent === undefined ? [] : [parent, ...ancestors(trace, parent)]
}

const serverKind = 2

describe("traces", () => {
  it.scopedLive("with OTEL_EXPORTER_OTLP_ENDPOINT: a request's span carries the X-Trace-Id and envelope's trace_id, its SQL statements inside", () =>
    Effect.gen(function*() {
      const receiver = yield* Effect.acquireRelease(Effect.promise(() => startOtlpReceiver()), (r) => Effect.promise(r.close))
      const api = yield* apiWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "100" })

      // Refused first: it reads the app's credentials (cached for the next request), the token
      // request then writes the token, so each has statements of its own.
      const refused = yield* Effect.promise(() => requestToken(api.baseUrl, api.app.app_id, "not-the-secret"))
      expect(refused.status).toBe(401)
      const refusedTrace = refused.headers.get("x-trace-id")!
      const ok = yield* Effect.promise(() => requestToken(api.baseUrl, api.app.app_id, api.app.app_secret))
      expect(ok.status).toBe(200)
      const okTrace = ok.headers.get("x-trace-id")!
      const envelope = yield* Effect.promise(() => refused.json())
      expect(envelope.trace_id).toBe(refusedTrace)
      expect(okTrace).toMatch(/^[0-9a-f]{32}$/)
      expect(refusedTrace).not.toBe(okTrace)

      for (const [traceId, status] of [[okTrace, 200], [refusedTrace, 401]] as const) {
        const root = yield* Effect.promise(() => receiver.waitFor((spans) => spans.find((span) => span.traceId === traceId && span.kind === serverKind)))
        expect(root.name).toBe(`POST ${tokenPath}`)
        expect(root.parentSpanId ?? "").toBe("")
        expect(root.attributes).toMatchObject({ "http.request.method": "POST", "http.route": tokenPath, "http.response.status_code": status, "collector.app_id": api.app.app_id })
        expect(root.resource["service.name"]).toBe("api")
        // The statements come with the request's span, in the same export or the next.
        const statements = yield* Effect.promise(() =>
          receiver.waitFor((spans) => {
            const found = traceOf(spans, traceId).filter((span) => span.name === "sql.execute")
            return found.length > 0 ? found : undefined
          })
        )
        for (const statement of statements) {
          expect(ancestors(traceOf(receiver.spans, traceId), statement)).toContainEqual(expect.objectContaining({ spanId: root.spanId }))
          expect(statement.attributes["db.query.text"]).toEqual(expect.any(String))
        }
      }
      // Nothing of a request is recorded beyond what the access line holds: no header, secret or signature.
      const everything = JSON.stringify(receiver.spans)
      expect(everything).not.toContain(api.app.app_secret)
      expect(everything).not.toContain("x-sign")
      // The platform's own server span is off (the gate makes it), and statements outside any span
      // (the start's migration check) are not exported.
      expect(receiver.spans.filter((span) => span.name.startsWith("http.server"))).toEqual([])
      expect(receiver.spans.filter((span) => span.name.startsWith("sql.") && (span.parentSpanId ?? "") === "")).toEqual([])
      expect(api.startLine()?.annotations?.traces).toBe(`${receiver.url}/v1/traces`)
    }), { timeout: 120_000 })

  it.scopedLive("by default the spans go as OTLP protobuf, named after OTEL_SERVICE_NAME", () =>
    Effect.gen(function*() {
      const receiver = yield* Effect.acquireRelease(Effect.promise(() => startOtlpReceiver()), (r) => Effect.promise(r.close))
      const api = yield* apiWith({ OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`, OTEL_SERVICE_NAME: "collector-api-eu", OTEL_BSP_SCHEDULE_DELAY: "100" })
      const response = yield* Effect.promise(() => requestToken(api.baseUrl, api.app.app_id, api.app.app_secret))
      const traceId = Buffer.from(response.headers.get("x-trace-id")!, "hex")
      const sent = yield* Effect.promise(async () => {
        const until = Date.now() + 15_000
        while (Date.now() < until) {
          const found = receiver.exports.find((e) => e.body.includes(traceId))
          if (found !== undefined) return found
          await new Promise((r) => setTimeout(r, 50))
        }
        throw new Error("the request's trace ID was not in any export")
      })
      expect(sent.path).toBe("/v1/traces")
      expect(sent.contentType).toBe("application/x-protobuf")
      expect(sent.body.includes(Buffer.from("collector-api-eu"))).toBe(true)
    }), { timeout: 120_000 })

  it.scopedLive("without OTEL_EXPORTER_OTLP_ENDPOINT nothing is sent, and the trace ID is drawn as before", () =>
    Effect.gen(function*() {
      // Where an OpenTelemetry exporter sends when told nothing (localhost:4318), if that port is free here.
      const atDefault = yield* Effect.promise(() => startOtlpReceiver(4318).catch(() => undefined))
      yield* Effect.addFinalizer(() => Effect.promise(() => atDefault?.close() ?? Promise.resolve()))
      // Every other variable says how, as an operator might leave them; the endpoint is empty.
      const api = yield* apiWith({ OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "api-off", OTEL_BSP_SCHEDULE_DELAY: "100" })
      const refused = yield* Effect.promise(() => requestToken(api.baseUrl, api.app.app_id, "not-the-secret"))
      expect(refused.status).toBe(401)
      const traceId = refused.headers.get("x-trace-id")!
      expect(traceId).toMatch(/^[0-9a-f]{32}$/)
      expect((yield* Effect.promise(() => refused.json())).trace_id).toBe(traceId)
      expect((yield* Effect.promise(() => requestToken(api.baseUrl, api.app.app_id, api.app.app_secret))).status).toBe(200)
      // Ten export intervals, had tracing been on.
      yield* Effect.sleep("1 second")
      expect(atDefault?.exports ?? []).toEqual([])
      expect(api.startLine()).toBeDefined()
      expect(api.startLine()?.annotations?.traces).toBeUndefined()
    }), { timeout: 120_000 })
})
