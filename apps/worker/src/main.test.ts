import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { wallet } from "@collector/tron-sim/testing"
import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"
import { runTs, startTs } from "../../../test-support/Processes.js"
import { ProcessWorld, DatabaseUrl } from "./testing/ProcessWorld.js"
import { masterKeyBytes } from "./testing/EngineWorld.js"
import { seedTenant, Sim } from "./testing/ScanHarness.js"

const workerEnv = (databaseUrl: string, nodeUrl: string, startBlock: bigint) => ({
  SCAN_START_BLOCK: startBlock.toString(),
  DATABASE_URL: databaseUrl,
  // The notifier opens webhook keys, so a worker on an external database needs the master key.
  MASTER_KEY: masterKeyBytes.toString("base64"),
  TRON_NILE_NODE_URL: nodeUrl,
  TRON_REQUESTS_PER_SECOND: "2000",
  TRON_REQUEST_RETRIES: "0",
  WORKER_NETWORKS: "nile",
  // One block per transaction, so that a kill lands between or inside block transactions.
  SCAN_BATCH_BLOCKS: "1",
  SCAN_POLL_MS: "50",
  SCAN_LEASE_TTL_MS: "1500",
  SCAN_FAILURE_BACKOFF_MS: "50",
  LOG_LEVEL: "WARN"
})

const killed = (child: ChildProcess, signal: NodeJS.Signals = "SIGKILL") =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill(signal)
  })

const cursorOf = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ n: string | null }>`SELECT max(block_number)::text AS n FROM scan_cursors WHERE network = 'nile'`.pipe(
    Effect.map(([row]) => (row?.n == null ? 0n : BigInt(row.n)))
  )).pipe(Effect.orDie)

const waitFor = <A, R>(read: Effect.Effect<A, never, R>, done: (a: A) => boolean, timeoutMs = 60_000) =>
  Effect.gen(function*() {
    const until = Date.now() + timeoutMs
    while (true) {
      const value = yield* read
      if (done(value)) return value
      if (Date.now() > until) return yield* Effect.dieMessage(`condition not reached in ${timeoutMs} ms; last ${String(value)}`)
      yield* Effect.sleep("50 millis")
    }
  })

/** Booked deposits and their events: exactly one confirmed revision per transfer, one event each. */
const ledgerOf = (tenantId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.all({
      deposits: sql<{ txid: string; amount: string; revision: number; status: string }>`
        SELECT txid, amount::text, revision, status FROM deposits WHERE tenant_id = ${tenantId} ORDER BY txid`,
      events: sql<{ n: string }>`SELECT count(*)::text AS n FROM events WHERE tenant_id = ${tenantId}`,
      total: sql<{ t: string | null }>`SELECT confirmed_usdt::text AS t FROM deposit_totals WHERE tenant_id = ${tenantId}`
    })).pipe(Effect.orDie)

/** `blocks` blocks, each with a transfer to one of `wallets` and one to an outsider. */
const headOf = Effect.flatMap(Sim, (sim) => Effect.map(sim.chain.state, (state) => state.blocks[state.blocks.length - 1]!.number))

const transfersOver = (blocks: number, wallets: ReadonlyArray<{ readonly address: string }>) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const sent: Array<{ txid: string; amount: string }> = []
    for (let i = 0; i < blocks; i++) {
      const amount = BigInt(1_000_000 + i)
      sent.push({ txid: yield* sim.chain.mintUsdt(wallets[i % wallets.length]!.address, amount), amount: amount.toString() })
      yield* sim.chain.mintUsdt(wallet(5000 + i).address, 1n)
      yield* sim.chain.mine(1)
    }
    return sent.sort((a, b) => a.txid.localeCompare(b.txid))
  }).pipe(Effect.orDie)

layer(ProcessWorld, { excludeTestServices: true, timeout: 180_000 })("worker processes", (it) => {
  it.effect("a worker killed mid-scan and restarted books every transfer exactly once", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const env = workerEnv(yield* DatabaseUrl, sim.url, yield* headOf)
      const wallets = yield* seedTenant("block_1", 4)
      const tenantId = wallets[0]!.tenantId
      const sent = yield* transfersOver(80, wallets)
      const head = yield* headOf
      // Kill at three points of the catch-up, then let a last worker finish.
      let seen = 0n
      for (let round = 0; round < 3; round++) {
        const child = startTs("apps/worker/src/main.ts", env)
        seen = yield* waitFor(cursorOf, (n) => n > seen + 5n)
        yield* killed(child)
        expect(child.signalCode).toBe("SIGKILL")
      }
      expect(seen).toBeLessThan(head)
      const last = startTs("apps/worker/src/main.ts", env)
      yield* waitFor(cursorOf, (n) => n >= head)
      const ledger = yield* waitFor(ledgerOf(tenantId), (l) => l.deposits.length >= sent.length)
      yield* killed(last, "SIGTERM")
      expect(ledger.deposits.map((d) => ({ txid: d.txid, amount: d.amount }))).toEqual(sent)
      expect(ledger.deposits.every((d) => d.revision === 1 && d.status === "confirmed")).toBe(true)
      expect(Number(ledger.events[0]!.n)).toBe(sent.length)
      expect(ledger.total[0]!.t).toBe(sent.reduce((sum, s) => sum + BigInt(s.amount), 0n).toString())
    }), 180_000)

  it.effect("two workers at once: one scans, nothing is booked twice, and the other takes over when it dies", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const env = workerEnv(yield* DatabaseUrl, sim.url, yield* headOf)
      const wallets = yield* seedTenant("block_1", 3)
      const tenantId = wallets[0]!.tenantId
      const a = startTs("apps/worker/src/main.ts", env)
      const b = startTs("apps/worker/src/main.ts", env)
      const first = yield* transfersOver(30, wallets)
      const sql = yield* SqlClient.SqlClient
      const holderOf = sql<{ holder: string }>`SELECT lease_holder AS holder FROM scan_cursors WHERE network = 'nile'`.pipe(
        Effect.map(([row]) => row?.holder ?? ""),
        Effect.orDie
      )
      yield* waitFor(ledgerOf(tenantId), (l) => l.deposits.length >= first.length)
      // A lease left by an earlier test's killed worker runs out first.
      const holder = yield* waitFor(holderOf, (h) => [a.pid, b.pid].includes(Number(h.split("/")[1])))
      const holderPid = Number(holder.split("/")[1])
      expect([a.pid, b.pid]).toContain(holderPid)
      const [dying, surviving] = holderPid === a.pid ? [a, b] : [b, a]
      yield* killed(dying)
      const second = yield* transfersOver(20, wallets)
      const ledger = yield* waitFor(ledgerOf(tenantId), (l) => l.deposits.length >= first.length + second.length)
      expect(Number((yield* holderOf).split("/")[1])).toBe(surviving.pid)
      yield* killed(surviving, "SIGTERM")
      const all = [...first, ...second].sort((x, y) => x.txid.localeCompare(y.txid))
      expect(ledger.deposits.map((d) => ({ txid: d.txid, amount: d.amount }))).toEqual(all)
      expect(Number(ledger.events[0]!.n)).toBe(all.length)
    }), 180_000)

  it.effect("refuses to start on a bad setting, with one line naming the variable and what it must be, one of each kind", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const env = { DATABASE_URL: yield* DatabaseUrl, MASTER_KEY: masterKeyBytes.toString("base64"), TRON_NILE_NODE_URL: sim.url, WORKER_NETWORKS: "nile" }
      const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
        [{ WORKER_NETWORKS: "nile,mars" }, "WORKER_NETWORKS must list one or more of main, nile, comma-separated"],
        [{ SCAN_BATCH_BLOCKS: "ten" }, "SCAN_BATCH_BLOCKS must be a whole number of at least 1"],
        [{ NOTIFIER_PER_TENANT: "0" }, "NOTIFIER_PER_TENANT must be a whole number from 1 to 4096"],
        [{ SCAN_POLL_MS: "5" }, "SCAN_POLL_MS must be a whole number of at least 50 (milliseconds)"],
        [{ SWEEP_PREPARATION_HOURS: "721" }, "SWEEP_PREPARATION_HOURS must be a whole number from 1 to 720 (hours)"],
        [{ BALANCE_SYNC_WALLETS_PER_SECOND: "0" }, "BALANCE_SYNC_WALLETS_PER_SECOND must be a number greater than 0 and at most 1000"],
        [{ TRON_NILE_NODE_URL: "ftp://node" }, "TRON_NILE_NODE_URL must be an http(s) URL such as https://api.trongrid.io or http://127.0.0.1:8090"],
        [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: "maybe" }, "WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false"],
        [{ ENERGY_PROVIDER_NILE: "feee" }, "ENERGY_PROVIDER_NILE must be sim, sim-b, catfee, merx or none (feee.io and others are not supported)"],
        [{ ENERGY_PROVIDER_NILE: "catfee" }, "ENERGY_PROVIDER_NILE_API_KEY is required with ENERGY_PROVIDER_NILE=catfee (CatFee: User Center, API Settings)"],
        [{ EMBEDDED_PG_PORT: "70000" }, "EMBEDDED_PG_PORT must be a whole number from 1 to 65535"]
      ]
      for (const [bad, message] of cases) {
        const run = yield* Effect.promise(() => runTs("apps/worker/src/main.ts", { ...env, ...bad }))
        expect({ bad, code: run.code, stderr: run.stderr.trim() }).toEqual({ bad, code: 1, stderr: `worker cannot start: ${message}` })
      }
    }), 180_000)
})
