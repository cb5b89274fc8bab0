import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { eventually } from "../../../test-support/Eventually.js"
import { readyz, scrape, valueOf } from "../../../test-support/Operator.js"
import { freePort, startTs, waitForHttp } from "../../../test-support/Processes.js"
import { DatabaseUrl, ProcessWorld } from "./testing/ProcessWorld.js"
import { Sim } from "./testing/ScanHarness.js"

layer(ProcessWorld, { excludeTestServices: true, timeout: 120_000 })("the worker process's operator endpoints", (it) => {
  it.scoped("ready with its engine's loops alive and the scan current; the scan's metrics follow the chain; a node that holds its replies makes it not ready", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const head = yield* Effect.map(sim.chain.state, (state) => state.blocks[state.blocks.length - 1]!.number)
      const operatorPort = yield* Effect.promise(freePort)
      const child = startTs("apps/worker/src/main.ts", {
        DATABASE_URL: yield* DatabaseUrl,
        MASTER_KEY: Buffer.alloc(32, 5).toString("base64"),
        TRON_NILE_NODE_URL: sim.url,
        TRON_REQUESTS_PER_SECOND: "2000",
        TRON_REQUEST_RETRIES: "0",
        WORKER_NETWORKS: "nile",
        SCAN_START_BLOCK: head.toString(),
        SCAN_POLL_MS: "50",
        OPERATOR_PORT: String(operatorPort),
        READY_CHECK_TIMEOUT_MS: "500",
        READY_MAX_SCAN_LAG_BLOCKS: "5",
        LOG_LEVEL: "WARN"
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => child.kill("SIGTERM")))
      yield* Effect.promise(() => waitForHttp(`http://127.0.0.1:${operatorPort}/healthz`))
      const ready = yield* eventually(Effect.promise(() => readyz(operatorPort)), (r) => r.status === 200)
      expect(ready.body.checks.map((c) => c.component)).toEqual(["database", "node", "scanner", "notifier", "sweeper", "key_store"])

      const blocks = (text: string) => valueOf(text, "collector_scan_blocks_total", { network: "nile" }) ?? 0
      const before = yield* Effect.promise(() => scrape(operatorPort))
      yield* sim.chain.mine(8)
      yield* eventually(Effect.map(Effect.promise(() => scrape(operatorPort)), blocks), (stored) => stored >= blocks(before) + 8)
      const lag = (text: string) => valueOf(text, "collector_scan_head_lag_blocks", { network: "nile" })
      yield* eventually(Effect.map(Effect.promise(() => scrape(operatorPort)), lag), (blocksBehind) => blocksBehind === 0)
      const after = yield* Effect.promise(() => scrape(operatorPort))
      expect(valueOf(after, "collector_webhook_backlog", { network: "nile" })).toBe(0)
      expect(valueOf(after, "collector_sweeps", { network: "nile", status: "pending" })).toBe(0)
      // No API in this process.
      expect(after).not.toContain("collector_http_requests_total")

      // Every node request held until the outage ends: the check gives up at READY_CHECK_TIMEOUT_MS.
      yield* Effect.promise(() => fetch(`${sim.url}/sim/fail`, { method: "POST", body: JSON.stringify({ mode: "timeout", ms: 4000 }) }))
      const down = yield* eventually(Effect.promise(() => readyz(operatorPort)), (r) => r.status === 503)
      expect(down.body.not_ready.find((c) => c.component === "node")).toEqual({ component: "node", network: "nile", reason: "no answer within 500 ms" })
      yield* eventually(Effect.promise(() => readyz(operatorPort)), (r) => r.status === 200)
    }), { timeout: 120_000 })
})
