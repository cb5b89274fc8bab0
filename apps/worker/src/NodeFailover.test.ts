import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:net"
import { startTs } from "../../../test-support/Processes.js"
import { stopped } from "../../../test-support/ChildExit.js"
import { masterKeyBytes } from "./testing/EngineWorld.js"
import { startLaggingNode } from "./testing/LaggingNode.js"
import { DatabaseUrl, ProcessWorld } from "./testing/ProcessWorld.js"
import { seedTenant, Sim } from "./testing/ScanHarness.js"

/** A port nothing listens on: bound once by the OS's choice, then closed. */
const closedPort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

const depositsOf = (tenantId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ txid: string; amount: string; status: string }>`SELECT txid, amount::text, status FROM deposits WHERE tenant_id = ${tenantId} ORDER BY txid`
  ).pipe(Effect.orDie)

const waitFor = <A, R>(read: Effect.Effect<A, never, R>, done: (a: A) => boolean, timeoutMs = 90_000) =>
  Effect.gen(function*() {
    const until = Date.now() + timeoutMs
    while (true) {
      const value = yield* read
      if (done(value)) return value
      if (Date.now() > until) return yield* Effect.dieMessage(`condition not reached in ${timeoutMs} ms; last ${JSON.stringify(value)}`)
      yield* Effect.sleep("100 millis")
    }
  })

/** A worker process on `nodeUrls` (first preferred), scanning from the simulator's head; stopped however the test ends. */
const workerOn = (nodeUrls: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const state = yield* sim.chain.state
    const start = state.blocks[state.blocks.length - 1]!.number
    const databaseUrl = yield* DatabaseUrl
    yield* Effect.acquireRelease(Effect.sync(() => startTs("apps/worker/src/main.ts", {
      SCAN_START_BLOCK: start.toString(),
      DATABASE_URL: databaseUrl,
      MASTER_KEY: masterKeyBytes.toString("base64"),
      WORKER_NETWORKS: "nile",
      TRON_NILE_NODE_URLS: nodeUrls.join(","),
      TRON_REQUESTS_PER_SECOND: "2000",
      TRON_REQUEST_RETRIES: "0",
      TRON_NODE_COOL_DOWN_MS: "2000",
      SCAN_POLL_MS: "50",
      SCAN_FAILURE_BACKOFF_MS: "50",
      LOG_LEVEL: "WARN"
    })), (child) => Effect.promise(() => stopped(child)))
  })

/** Mints to a new tenant's wallet, mines `blocks`, and waits until the deposit is booked: it must be the one minted, once. */
const depositBookedThrough = (nodeUrls: ReadonlyArray<string>, blocks: number) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const wallets = yield* seedTenant("block_1", 1)
    yield* workerOn(nodeUrls)
    const txid = yield* sim.chain.mintUsdt(wallets[0]!.address, 2_500_000n).pipe(Effect.orDie)
    for (let i = 0; i < blocks; i++) {
      yield* sim.chain.mine(1).pipe(Effect.orDie)
      yield* Effect.sleep("150 millis")
    }
    const deposits = yield* waitFor(depositsOf(wallets[0]!.tenantId), (rows) => rows.length >= 1 && rows.every((row) => row.status === "confirmed"))
    // A second look a moment later: a deposit booked twice (once per fork) would show by now.
    yield* Effect.sleep("1 second")
    expect(yield* depositsOf(wallets[0]!.tenantId)).toEqual(deposits)
    expect(deposits).toEqual([{ txid, amount: "2500000", status: "confirmed" }])
  })

layer(ProcessWorld, { excludeTestServices: true, timeout: 180_000 })("a worker with two nodes", (it) => {
  it.effect("the first node is down (a closed port): the worker fails over to the second and books the deposit", () =>
    Effect.gen(function*() {
      const down = `http://127.0.0.1:${yield* closedPort}`
      yield* depositBookedThrough([down, (yield* Sim).url], 1)
    }).pipe(Effect.scoped), 180_000)

  it.effect("the first node lags 20 blocks behind (more than the 5 allowed): the worker reads the second and books the deposit", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      // Enough chain under the lagging node's head.
      yield* sim.chain.mine(45).pipe(Effect.orDie)
      const lagging = yield* startLaggingNode(sim.url, 20n)
      yield* depositBookedThrough([lagging.url, sim.url], 1)
      expect(lagging.requests(), "the worker asked the lagging node too").toBeGreaterThan(0)
    }).pipe(Effect.scoped), 180_000)
})
