import { freshDatabaseUrl } from "@collector/postgres/testing"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { createServer } from "node:net"
import { accepts, readyz, scrape, valueOf } from "../../../test-support/Operator.js"
import { freePort, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"

const key = Buffer.alloc(32, 3).toString("base64")

describe("the API process's operator endpoints", () => {
  it.scopedLive("ready when the database answers (the API has no engine; nodes are not its readiness); metrics count its requests by route", () =>
    Effect.gen(function*() {
      const { url } = yield* freshDatabaseUrl
      const [port, operatorPort] = [yield* Effect.promise(freePort), yield* Effect.promise(freePort)]
      // Opened to every address on purpose: what the loopback default keeps closed, this opens.
      const child = startTs("apps/api/src/main.ts", {
        DATABASE_URL: Redacted.value(url),
        MASTER_KEY: key,
        PORT: String(port),
        OPERATOR_PORT: String(operatorPort),
        OPERATOR_HOST: "0.0.0.0",
        LOG_LEVEL: "WARN"
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => child.kill("SIGTERM")))
      yield* Effect.promise(() => waitForHttp(`http://127.0.0.1:${operatorPort}/healthz`))
      const ready = yield* Effect.promise(() => readyz(operatorPort))
      expect(ready.status).toBe(200)
      expect(ready.body.checks.map((c) => [c.component, c.ready])).toEqual([["database", true], ["key_store", true]])
      expect(yield* Effect.promise(() => accepts("127.0.0.2", operatorPort))).toBe(true)

      for (const path of ["/healthz", "/healthz", "/open/v1/wallets/123", "/no/such/path"]) yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}${path}`))
      const text = yield* Effect.promise(() => scrape(operatorPort))
      expect(valueOf(text, "collector_http_requests_total", { route: "GET /healthz", status: "200" })).toBe(2)
      expect(valueOf(text, "collector_http_requests_total", { route: "GET /open/v1/wallets/:id", status: "401" })).toBe(1)
      expect(valueOf(text, "collector_http_requests_total", { route: "unmatched", status: "404" })).toBe(1)
      expect(valueOf(text, "collector_http_request_duration_seconds_count", { route: "GET /healthz" })).toBe(2)
      expect(valueOf(text, "collector_http_request_duration_seconds_bucket", { route: "GET /healthz", le: "+Inf" })).toBe(2)
      // The operator's own requests are not the API's.
      expect(text).not.toContain("/metrics")
      expect(valueOf(text, "process_resident_memory_bytes")).toBeGreaterThan(0)
    }), { timeout: 120_000 })

  it.live("a bad OPERATOR_PORT, OPERATOR_HOST or READY_* setting stops the start before the database is touched", () =>
    Effect.promise(async () => {
      // A database that does not exist: a process that connected first would fail on that instead.
      const url = "postgres://postgres@127.0.0.1:5432/no_such_database_for_start_checks"
      for (const [env, message] of [
        [{ OPERATOR_PORT: "65536" }, /^api cannot start: OPERATOR_PORT must be a whole number from 0 to 65535$/],
        [{ OPERATOR_PORT: "metrics" }, /^api cannot start: OPERATOR_PORT must be a whole number from 0 to 65535$/],
        [{ OPERATOR_HOST: " " }, /^api cannot start: OPERATOR_HOST must be an address to listen on/],
        [{ READY_MAX_SCAN_LAG_BLOCKS: "-1" }, /^api cannot start: READY_MAX_SCAN_LAG_BLOCKS must be a whole number of at least 0 \(blocks\)$/]
      ] as const) {
        const run = await runTs("apps/api/src/main.ts", { DATABASE_URL: url, MASTER_KEY: key, PORT: String(await freePort()), ...env })
        expect(run.code).toBe(1)
        expect(run.stderr.trim()).toMatch(message)
      }
    }), { timeout: 120_000 })

  it.scopedLive("OPERATOR_PORT=0 serves no endpoints (the start line says off); a taken operator port is one readable line", () =>
    Effect.gen(function*() {
      const { url } = yield* freshDatabaseUrl
      const database = Redacted.value(url)
      const port = yield* Effect.promise(freePort)
      const off = startTs("apps/api/src/main.ts", { DATABASE_URL: database, MASTER_KEY: key, PORT: String(port), OPERATOR_PORT: "0", LOG_FORMAT: "json" }, { output: "pipe" })
      yield* Effect.addFinalizer(() => Effect.sync(() => off.kill("SIGTERM")))
      const startLine = yield* Effect.async<Record<string, unknown>>((resume) => {
        let text = ""
        off.stdout!.on("data", (chunk) => {
          text += chunk
          const line = text.split("\n").find((l) => l.includes("\"api started\""))
          if (line !== undefined) resume(Effect.succeed(JSON.parse(line)))
        })
      })
      expect(startLine).toMatchObject({ annotations: { operator: "off", api_port: port } })
      // The API itself serves as usual.
      expect((yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/healthz`))).status).toBe(200)

      const holder = createServer()
      const taken = yield* Effect.promise(freePort)
      yield* Effect.promise(() => new Promise<void>((done) => holder.listen(taken, "127.0.0.1", done)))
      yield* Effect.addFinalizer(() => Effect.sync(() => holder.close()))
      const run = yield* Effect.promise(async () =>
        runTs("apps/api/src/main.ts", { DATABASE_URL: database, MASTER_KEY: key, PORT: String(await freePort()), OPERATOR_PORT: String(taken) })
      )
      expect(run.code).toBe(1)
      expect(run.stderr.trim()).toBe(`api cannot start: cannot listen on 127.0.0.1:${taken}: the port is in use by another process (set OPERATOR_PORT to another port)`)
    }), { timeout: 120_000 })
})
