import { makeCollectorClient } from "@collector/sdk"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { FetchHttpClient } from "@effect/platform"
import { expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { resolve } from "node:path"
import { eventually } from "../../../test-support/Eventually.js"
import { accepts, readyz, samplesOf, scrape, valueOf } from "../../../test-support/Operator.js"
import { freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"

/** The local address (hex, as the kernel writes it) of the IPv4 socket listening on `port`, if any. */
const listeningAddress = (port: number) => {
  if (!existsSync("/proc/net/tcp")) return undefined
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0")
  return readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1).map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[3] === "0A" && fields[1]?.endsWith(`:${hexPort}`))?.[1]?.split(":")[0]
}

it.scopedLive("npm start: operator endpoints on loopback: /healthz, /readyz (503 naming the node in a simulated outage), /metrics moving with a deposit", () =>
  Effect.gen(function*() {
    const { url } = yield* freshDatabaseUrl
    const dataDir = resolve(repositoryRoot, ".data", `service-operator-test-${process.pid}`)
    const [port, simPort, operatorPort, closedPort] = [
      yield* Effect.promise(freePort),
      yield* Effect.promise(freePort),
      yield* Effect.promise(freePort),
      yield* Effect.promise(freePort)
    ]
    const env = {
      DATABASE_URL: Redacted.value(url),
      MASTER_KEY: Buffer.alloc(32, 9).toString("base64"),
      DATA_DIR: dataDir,
      PORT: String(port),
      OPERATOR_PORT: String(operatorPort),
      TRON_NILE_NODE_URL: undefined,
      TRON_SIM_PORT: String(simPort),
      TRON_SIM_BLOCK_MS: "300",
      SCAN_POLL_MS: "100",
      // The deposit's webhook goes to a local port nobody listens on: its attempts fail.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      LOG_LEVEL: "WARN"
    }
    const child = startTs("apps/service/src/main.ts", env)
    yield* Effect.addFinalizer(() => Effect.sync(() => (child.kill("SIGTERM"), rmSync(dataDir, { recursive: true, force: true }))))
    const operator = `http://127.0.0.1:${operatorPort}`
    const readiness = Effect.promise(() => readyz(operatorPort))
    yield* Effect.promise(() => waitForHttp(`${operator}/healthz`))
    const health = yield* Effect.promise(() => fetch(`${operator}/healthz`).then(async (r) => ({ status: r.status, body: await r.json() })))
    expect(health).toEqual({ status: 200, body: { status: "ok" } })

    // Ready once the scanner has stored a block and the notifier and sweeper have reported.
    const ready = yield* eventually(readiness, (r) => r.status === 200)
    expect(ready.body.status).toBe("ready")
    expect(ready.body.not_ready).toEqual([])
    expect(ready.body.checks.map((c) => [c.component, c.network ?? "", c.ready])).toEqual([
      ["database", "", true],
      ["node", "nile", true],
      ["scanner", "nile", true],
      ["notifier", "nile", true],
      ["sweeper", "nile", true],
      ["key_store", "", true]
    ])

    // Loopback only by default: the socket is bound to 127.0.0.1 (not the wildcard), so another
    // address of this host is refused, while the API, bound to every address, answers there.
    expect(yield* Effect.promise(() => accepts("127.0.0.2", port))).toBe(true)
    expect(yield* Effect.promise(() => accepts("127.0.0.2", operatorPort))).toBe(false)
    const bound = listeningAddress(operatorPort)
    if (bound !== undefined) {
      expect(bound).toBe("0100007F")
      expect(listeningAddress(port)).toBe("00000000")
    }

    const created = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "ops", "--networks", "nile", "--json"]))
    expect(created.code, created.stderr).toBe(0)
    const rule = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", env, ["tenant", "set-confirmation", "ops", "--network", "nile", "--rule", "block_1"]))
    expect(rule.code, rule.stderr).toBe(0)
    const app = JSON.parse(created.stdout).apps[0]
    const client = yield* makeCollectorClient({ baseUrl: `http://127.0.0.1:${port}`, appId: app.app_id, appSecret: Redacted.make(app.app_secret), timeout: "10 seconds" }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    const wallet = yield* client.wallets.createWallet({ payload: { custom_id: "ops-1", request_id: randomUUID() } })
    yield* client.wallets.getWallet({ path: { id: wallet.id } })
    yield* client.settings.setWebhook({ payload: { url: `https://127.0.0.1:${closedPort}/hook`, enabled: true, request_id: randomUUID() } })

    const before = yield* Effect.promise(() => scrape(operatorPort))
    // Every family the operator is promised, with its labels.
    for (const name of ["collector_scan_head_lag_blocks", "collector_webhook_backlog"]) {
      expect(valueOf(before, name, { network: "nile" }), name).toBeGreaterThanOrEqual(0)
    }
    expect(valueOf(before, "collector_scan_blocks_total", { network: "nile" })).toBeGreaterThan(0)
    for (const status of ["pending", "ready", "signed", "broadcast", "unknown"]) {
      expect(valueOf(before, "collector_sweeps", { network: "nile", status })).toBe(0)
    }
    expect(valueOf(before, "collector_node_requests_total", { network: "nile", endpoint: "/wallet/getblock", outcome: "ok" })).toBeGreaterThan(0)
    expect(valueOf(before, "collector_node_request_duration_seconds_count", { network: "nile", endpoint: "/wallet/getblock" })).toBeGreaterThan(0)
    expect(valueOf(before, "collector_node_request_duration_seconds_bucket", { network: "nile", endpoint: "/wallet/getblock", le: "+Inf" })).toBeGreaterThan(0)
    // The API's requests by route template, never by the path asked.
    expect(valueOf(before, "collector_http_requests_total", { route: "POST /open/v1/wallets", status: "200" })).toBe(1)
    expect(valueOf(before, "collector_http_requests_total", { route: "GET /open/v1/wallets/:id", status: "200" })).toBe(1)
    expect(samplesOf(before).filter((sample) => sample.labels.route?.includes(`/${wallet.id}`))).toEqual([])
    expect(valueOf(before, "collector_http_request_duration_seconds_count", { route: "GET /open/v1/wallets/:id" })).toBe(1)
    // The runtime's own.
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_seconds"]) {
      expect(valueOf(before, name), name).toBeGreaterThanOrEqual(0)
    }
    expect(before).toContain("# TYPE nodejs_gc_duration_seconds histogram")

    // A deposit moves the booking counter, and its webhook's failed attempt the attempts counter.
    const booked = (text: string) => valueOf(text, "collector_deposits_booked_total", { network: "nile", event_type: "deposit.confirmed" }) ?? 0
    const failedAttempts = (text: string) => valueOf(text, "collector_webhook_attempts_total", { network: "nile", outcome: "failed" }) ?? 0
    const minted = yield* Effect.promise(() =>
      fetch(`http://127.0.0.1:${simPort}/sim/mint`, { method: "POST", body: JSON.stringify({ to: wallet.address, amount: "5000000" }) })
        .then((r) => r.json() as Promise<{ ok: boolean }>)
    )
    expect(minted.ok).toBe(true)
    // Only the two figures are compared from one read to the next, so a counter that never moves fails once they stall.
    const moved = yield* eventually(
      Effect.promise(() => scrape(operatorPort)).pipe(Effect.map((text) => ({ booked: booked(text), failed: failedAttempts(text) }))),
      (figures) => figures.booked === booked(before) + 1 && figures.failed >= 1
    )
    expect(moved.booked).toBe(booked(before) + 1)
    const after = yield* Effect.promise(() => scrape(operatorPort))
    expect(valueOf(after, "collector_scan_blocks_total", { network: "nile" })).toBeGreaterThan(valueOf(before, "collector_scan_blocks_total", { network: "nile" })!)

    // The node down: not ready, naming the node (the scan's lag cannot be measured either).
    const outage = yield* Effect.promise(() =>
      fetch(`http://127.0.0.1:${simPort}/sim/fail`, { method: "POST", body: JSON.stringify({ mode: "error", ms: 6000 }) }).then((r) => r.json() as Promise<{ ok: boolean }>)
    )
    expect(outage.ok).toBe(true)
    const down = yield* eventually(readiness, (r) => r.status === 503)
    expect(down.body.status).toBe("not_ready")
    expect(down.body.not_ready.map((c) => c.component)).toContain("node")
    expect(down.body.not_ready.find((c) => c.component === "node")).toMatchObject({ network: "nile", reason: expect.stringContaining("HTTP 503") })
    const during = yield* Effect.promise(() => scrape(operatorPort))
    expect(valueOf(during, "collector_node_requests_total", { network: "nile", endpoint: "/wallet/getblock", outcome: "unavailable" })).toBeGreaterThan(0)
    // And ready again once it answers.
    yield* eventually(readiness, (r) => r.status === 200)
  }), { timeout: 150_000 })
