/**
 * Memory and growth (issue 21, item 5): the `npm start` process (API and worker in one,
 * `node apps/service/dist/main.js`, as production runs it) on a database of `BENCH_GROWTH_WALLETS`
 * wallets, each count on a fresh database, measured three ways on the same process:
 *
 * 1. a deposit stream alone: `BENCH_GROWTH_BLOCKS` blocks per round, one every
 *    `BENCH_GROWTH_BLOCK_MS`, each with `BENCH_GROWTH_DEPOSITS` deposits to random tenant wallets
 *    and `BENCH_GROWTH_OTHERS` transfers to outside addresses → the service's CPU per block (fetch,
 *    match, store, book, the webhook POST: all the worker does for a block; balance sync reads at
 *    its own constant rate, so it is in the idle figure), and the embedded PostgreSQL's;
 * 2. the wallet list alone: the default page of one tenant (signed, with a bearer token) at a
 *    constant `BENCH_GROWTH_LIST_RATE` for `BENCH_GROWTH_LIST_SECONDS` per round → CPU per
 *    request, p50/p99 (the rounds' requests pooled);
 * 3. both at once for `BENCH_GROWTH_BOTH_SECONDS`, the resident set (VmRSS) sampled every 250 ms
 *    → its peak and its value at the end; beside them the RSS right after start (idle) and the
 *    kernel's high-water mark (VmHWM) at the end.
 *
 * Before them a warm-up that is not measured (5 blocks, 3 s of the list): a fresh process's first
 * blocks and requests pay for compiling their code paths. CPU is read from /proc (utime + stime)
 * over each window; the service's idle CPU (its pollers, balance sync, which never runs out of
 * wallets to read) is measured over an equal idle window just before each, and its rate times the
 * window's length is subtracted. Phases 1 and 2 run in `BENCH_GROWTH_ROUNDS` rounds of (idle,
 * work) and report the median round with the spread, beside the CPU that processes outside the
 * benchmark used meanwhile (/proc/stat less this process tree): the cores are shared, and someone
 * else's burst spoils a round, not the figure. The embedded PostgreSQL's processes are this
 * benchmark's descendants; with DATABASE_URL its CPU is not seen. The list load runs in a process
 * of its own (bench/support/ConstantRate.ts).
 *
 * The benchmark drives the chain: a simulated node (`apps/devchain`, blocks only on /sim/mine) is
 * the service's `nile` node through TRON_NILE_NODE_URL, as a real node would be. The service runs
 * with its defaults except: TRON_REQUESTS_PER_SECOND=200 (an own node), API_RATE_PER_SECOND and
 * API_RATE_BURST raised (the list load is one app's, above the default 20 a second per app),
 * WEBHOOK_ALLOW_PRIVATE_TARGETS and WEBHOOK_EXTRA_CA_FILE (the tenants' receiver is local).
 *
 * Prints a table with a column per wallet count and the goal lines
 * `MEMORY npm-start-rss-peak <MiB> MiB at <N> wallets` (goal: at most 256 MB),
 * `GROWTH scanner-cpu-per-block <a> -> <b> ms (<ratio>x)` and
 * `GROWTH api-list-cpu-per-request <a> -> <b> ms (<ratio>x)` (first and last count; goal: flat).
 * Exits 1 when a deposit was not booked or its webhook not received, or a list request failed.
 *
 * Settings: BENCH_GROWTH_WALLETS (`10000,1000000`), BENCH_GROWTH_TENANTS (10, the wallets split
 * evenly), BENCH_GROWTH_ROUNDS (3), BENCH_GROWTH_BLOCKS (20 per round), BENCH_GROWTH_BLOCK_MS
 * (1000), BENCH_GROWTH_DEPOSITS (4), BENCH_GROWTH_OTHERS (20), BENCH_GROWTH_LIST_RATE (100),
 * BENCH_GROWTH_LIST_SECONDS (10 per round), BENCH_GROWTH_BOTH_SECONDS (30), BENCH_GROWTH_BUILD (`1`: `npm run -s build` first; `0` to use
 * the build as it is), BENCH_GROWTH_NODE_ARGS (node flags for the service, e.g. `--trace-gc` or
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`; none by default), BENCH_PG_STATEMENTS (`1`: PostgreSQL's
 * top statements in the first round's windows; embedded server only). The service's and the node's output
 * are kept in `.data/bench-growth-<wallets>-service.log` and `-devchain.log`.
 */
import { Tenants } from "@collector/core"
import { DatabaseAtUrl, PgAccessTokenRepository, PgIdempotencyStore, PgTenantRepository } from "@collector/postgres"
import { TronAddress } from "@collector/tron"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Effect, Exit, Layer, ManagedRuntime, Option, Redacted, Scope } from "effect"
import { type ChildProcess, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { closeSync, mkdirSync, openSync } from "node:fs"
import { cpus, totalmem } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import pg from "pg"
import { freePort, repositoryRoot, startTs, waitForHttp } from "../test-support/Processes.js"
import { benchDatabase } from "./support/BenchDatabase.js"
import { constantRateInChild, type ConstantRateResult } from "./support/ConstantRate.js"
import { cpuNow, type CpuReading, cpuSince, memoryOf, startService, stopProcess } from "./support/GrowthProcess.js"
import { percentile, percentileOfSorted } from "./support/Percentile.js"
import { type BenchApp, fetchToken, signedHeaders } from "./support/Signing.js"
import { loadWallets, rebuildScopeTotals } from "./support/WalletLoad.js"
import { runBenchmark } from "./support/RunBenchmark.js"
import { simPost } from "./support/SimControl.js"
import { startWebhookReceiver, tlsDir } from "./support/WebhookReceiver.js"

const walletCounts = (process.env.BENCH_GROWTH_WALLETS ?? "10000,1000000").split(",").map(Number)
const tenantCount = Number(process.env.BENCH_GROWTH_TENANTS ?? 10)
const rounds = Number(process.env.BENCH_GROWTH_ROUNDS ?? 3)
const streamBlocks = Number(process.env.BENCH_GROWTH_BLOCKS ?? 20)
const blockMs = Number(process.env.BENCH_GROWTH_BLOCK_MS ?? 1000)
const depositsPerBlock = Number(process.env.BENCH_GROWTH_DEPOSITS ?? 4)
const othersPerBlock = Number(process.env.BENCH_GROWTH_OTHERS ?? 20)
const listRate = Number(process.env.BENCH_GROWTH_LIST_RATE ?? 100)
const listSeconds = Number(process.env.BENCH_GROWTH_LIST_SECONDS ?? 10)
const bothSeconds = Number(process.env.BENCH_GROWTH_BOTH_SECONDS ?? 30)
const build = process.env.BENCH_GROWTH_BUILD !== "0"
// E.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": profiles the service (not a production setting; off by default).
const serviceNodeArgs = (process.env.BENCH_GROWTH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "")
const connections = 32
const dataDir = join(repositoryRoot, ".data")
const serviceEntry = join(repositoryRoot, "apps", "service", "dist", "main.js")
const listPath = "/open/v1/wallets"
const log = (line: string) => console.log(line)
const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((done) => setTimeout(done, Math.max(0, ms)))
const sleepUntil = (at: number) => sleep(at - now())

/** Tenants with their first app's credentials, created through the core as the CLI does. */
const createTenants = async (url: string, masterKey: Buffer) => {
  const admin = Tenants.TenantAdmin.layer.pipe(
    Layer.provide(Layer.mergeAll(PgTenantRepository.layer, PgAccessTokenRepository.layer, PgIdempotencyStore.layer)),
    Layer.provide([NodeEntropy.layer, AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer))]),
    Layer.provide([MasterKeyring.layer({ current: MasterKey.unsafeMake(masterKey) }), DatabaseAtUrl(Redacted.make(url), 4)])
  )
  const runtime = ManagedRuntime.make(admin)
  try {
    const created = await runtime.runPromise(
      Effect.flatMap(Tenants.TenantAdmin, (a) => Effect.forEach(Array.from({ length: tenantCount }, (_, i) => `growth-${i}`), (name) => a.create(name, ["nile"])))
    )
    return created.map((c) => ({ tenantId: String(c.tenant.id), app: { appId: c.credentials[0]!.appId, secret: Redacted.value(c.credentials[0]!.appSecret) } as BenchApp }))
  } finally {
    await runtime.dispose()
  }
}

interface Measured<A> {
  readonly result: A
  readonly cpu: CpuReading
  readonly seconds: number
}

/** Runs `work` and returns the CPU the service (and PostgreSQL, and others) used meanwhile, and how long it took. */
const measure = async <A>(pid: number, work: () => Promise<A>): Promise<Measured<A>> => {
  const before = cpuNow(pid)
  const started = now()
  const result = await work()
  return { result, cpu: cpuSince(before, cpuNow(pid)), seconds: (now() - started) / 1000 }
}

/** One round of a phase: an idle window, then the work in a window of the same length. */
interface Round {
  /** CPU milliseconds per unit of work: the window's CPU less the idle rate over its length. */
  readonly service: number
  readonly postgres: number
  /** Cores' worth of CPU that processes outside the benchmark used during the work's window. */
  readonly others: number
  /** The service's and PostgreSQL's CPU per second in the idle window (ms). */
  readonly idleService: number
  readonly idlePostgres: number
}

const roundOf = (busy: Measured<unknown>, idle: Measured<unknown>, units: number): Round => {
  const net = (pick: (c: CpuReading) => number) => ((pick(busy.cpu) - (pick(idle.cpu) / idle.seconds) * busy.seconds) * 1000) / units
  return {
    service: net((c) => c.service),
    postgres: net((c) => c.postgres),
    others: busy.cpu.others / busy.seconds,
    idleService: (idle.cpu.service / idle.seconds) * 1000,
    idlePostgres: (idle.cpu.postgres / idle.seconds) * 1000
  }
}

const median = (values: ReadonlyArray<number>) => percentile(values, 50)

/** Several loads as one: their requests' latencies pooled. */
const pooled = (loads: ReadonlyArray<ConstantRateResult>) => {
  const latencies = loads.flatMap((l) => l.latencies).sort((a, b) => a - b)
  return {
    rps: loads.reduce((sum, l) => sum + l.rps, 0) / loads.length,
    p50: percentileOfSorted(latencies, 50),
    p99: percentileOfSorted(latencies, 99),
    max: latencies[latencies.length - 1] ?? 0,
    failed: loads.reduce((sum, l) => sum + l.errors + l.non2xx, 0),
    firstError: loads.find((l) => l.firstError !== undefined)?.firstError
  }
}

interface Column {
  readonly wallets: number
  readonly rssIdle: number
  readonly rssPeak: number
  readonly rssEnd: number
  readonly hwm: number
  readonly blockRounds: ReadonlyArray<Round>
  readonly listRounds: ReadonlyArray<Round>
  readonly list: ReturnType<typeof pooled>
  readonly listBoth: ReturnType<typeof pooled>
  readonly othersBoth: number
  readonly deposits: number
  readonly missing: number
  readonly serviceExit: number | null
  readonly loadSeconds: number
}

/** One wallet count: a fresh database, node and service; the three phases; everything stopped again. */
const runOne = async (walletCount: number): Promise<Column> => {
  const label = `bench-growth-${walletCount}`
  const databaseScope = Effect.runSync(Scope.make())
  const owned: Array<ChildProcess> = []
  const closers: Array<() => unknown> = []
  try {
    const url = await Effect.runPromise(Scope.extend(benchDatabase(label), databaseScope))
    const masterKey = randomBytes(32)
    const tenants = await createTenants(url, masterKey)
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    closers.push(() => client.end())
    const receiver = await startWebhookReceiver()
    closers.push(receiver.close)
    for (const { tenantId } of tenants) {
      // block_1: each deposit is booked and posted within its own block's interval, inside the phase.
      await client.query("UPDATE apps SET confirmation_rule = 'block_1' WHERE tenant_id = $1", [tenantId])
      await client.query("INSERT INTO tenant_settings (tenant_id, network, webhook_url, webhook_enabled) VALUES ($1, 'nile', $2, true)", [
        tenantId,
        `https://localhost:${receiver.port}/hook`
      ])
    }
    const loadStarted = now()
    await loadWallets(client, tenants.map((t) => t.tenantId), Math.floor(walletCount / tenantCount), (done) => {
      if (done % 200_000 === 0) log(`  loaded ${done.toLocaleString("en")} wallets`)
    })
    // The bulk load bypasses the repository, so the list's counters are rebuilt from the rows once,
    // and the dirty pages are flushed now, not during the measurement.
    await rebuildScopeTotals(client)
    await client.query("VACUUM ANALYZE wallets")
    await client.query("VACUUM ANALYZE wallet_keys")
    await client.query("CHECKPOINT")
    const loadSeconds = (now() - loadStarted) / 1000
    // BENCH_PG_STATEMENTS=1: PostgreSQL's statements of the first round's windows (embedded server only).
    const statements = process.env.BENCH_PG_STATEMENTS === "1"
    if (statements) await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    const resetStatements = async () => {
      if (statements) await client.query("SELECT pg_stat_statements_reset()")
    }
    const printStatements = async (what: string) => {
      if (!statements) return
      const rows = (await client.query(
        `SELECT calls, round(total_exec_time::numeric, 1) AS exec_ms, round(total_plan_time::numeric, 1) AS plan_ms, shared_blks_hit + shared_blks_read AS blocks,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
         FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time + total_plan_time DESC LIMIT 8`
      )).rows
      log(`  PostgreSQL's statements, ${what} (calls, exec ms, plan ms, buffers: statement):`)
      for (const r of rows) log(`    ${r.calls}, ${r.exec_ms}, ${r.plan_ms}, ${r.blocks}: ${r.query}`)
    }
    // Deposit targets: a random sample of every tenant's wallets (the whole table need not be in memory here).
    const targets = (await client.query("SELECT address FROM wallets ORDER BY random() LIMIT 5000")).rows.map((r) => r.address as string)
    log(`  ${walletCount.toLocaleString("en")} wallets loaded in ${loadSeconds.toFixed(0)} s`)

    // The node: blocks only when this benchmark mines them.
    const nodePort = await freePort()
    const nodeUrl = `http://127.0.0.1:${nodePort}`
    const nodeLog = openSync(join(dataDir, `${label}-devchain.log`), "w")
    closers.push(() => closeSync(nodeLog))
    owned.push(startTs("apps/devchain/src/main.ts", { TRON_SIM_PORT: String(nodePort), TRON_SIM_BLOCK_MS: "0", TRON_SIM_SEED: label }, { output: nodeLog }))
    await waitForHttp(nodeUrl)
    const outside = () => Option.getOrThrow(TronAddress.fromHex(`41${randomBytes(20).toString("hex")}`))
    const senders = Array.from({ length: 8 }, outside)
    for (const to of senders) await simPost(`${nodeUrl}/sim/mint`, { to, amount: "1000000000000000" })
    await simPost(`${nodeUrl}/sim/mine`, { blocks: 30 })
    const head = Number((await simPost(`${nodeUrl}/sim/state`, {})).head.number)

    // The service, as `npm start` runs it.
    const apiPort = await freePort()
    const apiUrl = `http://127.0.0.1:${apiPort}`
    const serviceLogPath = join(dataDir, `${label}-service.log`)
    const serviceLog = openSync(serviceLogPath, "w")
    closers.push(() => closeSync(serviceLog))
    const service = startService(serviceEntry, serviceNodeArgs, {
      DATABASE_URL: url,
      MASTER_KEY: masterKey.toString("base64"),
      TRON_NILE_NODE_URL: nodeUrl,
      SCAN_START_BLOCK: String(head),
      PORT: String(apiPort),
      OPERATOR_PORT: "0",
      LOG_FORMAT: "json",
      TRON_REQUESTS_PER_SECOND: "200",
      API_RATE_PER_SECOND: "100000",
      API_RATE_BURST: "100000",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_EXTRA_CA_FILE: join(tlsDir, "ca.pem")
    }, serviceLog)
    owned.push(service)
    const pid = service.pid!
    const startedAt = now()
    while (Number((await client.query("SELECT coalesce(max(block_number), 0) AS n FROM scan_cursors WHERE network = 'nile'")).rows[0].n) < head) {
      if (now() - startedAt > 120_000 || service.exitCode !== null) throw new Error(`the service did not start scanning; its log: ${serviceLogPath}`)
      await sleep(100)
    }
    await waitForHttp(`${apiUrl}/healthz`)
    // Past the start's own work (the first integrity check, the first balance-sync batch).
    await sleep(5000)
    const rssIdle = memoryOf(pid).rss

    let sender = 0
    const expected = new Set<string>()
    /** One block: its deposits and other transfers sent to the pool, then mined at `at`. */
    const block = async (at: number) => {
      const transfers: Array<Promise<unknown>> = []
      for (let i = 0; i < depositsPerBlock; i++) {
        const to = targets[Math.floor(Math.random() * targets.length)]!
        transfers.push(
          simPost(`${nodeUrl}/sim/transfer`, { from: senders[sender++ % senders.length], to, amount: String(1_000_000 + Math.floor(Math.random() * 1e9)) })
            .then((r) => expected.add(String(r.txid).toLowerCase()))
        )
      }
      // Traffic to others in the same blocks, as on a real chain: fetched and parsed, matched to no wallet.
      for (let i = 0; i < othersPerBlock; i++) transfers.push(simPost(`${nodeUrl}/sim/transfer`, { from: senders[sender++ % senders.length], to: outside(), amount: "1000" }))
      await Promise.all(transfers)
      await sleepUntil(at)
      await simPost(`${nodeUrl}/sim/mine`, { blocks: 1 })
    }
    /** `blocks` blocks, one every `blockMs`; returns when the interval after the last one has passed too. */
    const stream = async (blocks: number) => {
      const started = now()
      for (let b = 0; b < blocks; b++) await block(started + b * blockMs)
      await sleepUntil(started + blocks * blockMs)
      return blocks
    }
    /** Waits (outside any measured window) until every deposit sent is booked and its webhook POST received. */
    const drain = async () => {
      const until = now() + 60_000
      for (;;) {
        const rows = (await client.query(
          `SELECT lower(d.txid) AS txid, e.id::text AS event_id FROM deposits d JOIN events e ON e.deposit_id = d.id AND e.revision = 1
           WHERE lower(d.txid) = ANY($1)`,
          [[...expected]]
        )).rows
        const missing = expected.size - rows.filter((r) => receiver.firstPost.has(r.event_id)).length
        if (missing === 0 || now() > until) return missing
        await sleep(200)
      }
    }
    const listRequest = async () => {
      const app = tenants[0]!.app
      // A fresh token and signature per load: a signature is valid for 300 s.
      const token = await fetchToken(apiUrl, app)
      return { method: "GET", path: listPath, headers: signedHeaders(app, "GET", listPath, token) } as const
    }
    const check = await fetch(`${apiUrl}${listPath}`, await listRequest())
    const page = await check.json()
    if (check.status !== 200 || page.data?.items?.length !== Math.min(20, Math.floor(walletCount / tenantCount)) || page.data?.total !== Math.floor(walletCount / tenantCount)) {
      throw new Error(`the list's default page: HTTP ${check.status} ${JSON.stringify(page).slice(0, 300)}`)
    }

    // A warm-up, not measured: the first blocks and requests of a fresh process pay for compiling
    // their code paths and filling caches (p99 over a second at the first list load otherwise).
    log("  warm-up: 5 blocks, then the list for 3 s")
    await stream(5)
    await constantRateInChild("list warm-up", apiUrl, await listRequest(), 3, listRate, connections)
    await drain()
    await sleep(3000)

    // 1. The deposit stream alone, in rounds: an idle window, then the blocks in one as long. The
    // median round is reported, so that a burst of someone else's work on these cores spoils one
    // round, not the figure.
    const blockRounds: Array<Round> = []
    for (let r = 0; r < rounds; r++) {
      log(`  round ${r + 1}/${rounds}: idle ${((streamBlocks * blockMs) / 1000).toFixed(0)} s, then ${streamBlocks} blocks`)
      if (r === 0) await resetStatements()
      const idle = await measure(pid, () => sleep(streamBlocks * blockMs))
      if (r === 0) await printStatements(`idle ${((streamBlocks * blockMs) / 1000).toFixed(0)} s`)
      if (r === 0) await resetStatements()
      const busy = await measure(pid, () => stream(streamBlocks))
      if (r === 0) await printStatements(`${streamBlocks} blocks`)
      blockRounds.push(roundOf(busy, idle, streamBlocks))
      // The last block's deposits booked and posted before the next idle window.
      await drain()
    }

    // 2. The list alone, in rounds as well.
    const listRounds: Array<Round> = []
    const listLoads: Array<ConstantRateResult> = []
    for (let r = 0; r < rounds; r++) {
      log(`  round ${r + 1}/${rounds}: idle ${listSeconds} s, then the list at ${listRate} req/s for ${listSeconds} s`)
      const shape = await listRequest()
      const idle = await measure(pid, () => sleep(listSeconds * 1000))
      if (r === 0) await resetStatements()
      const busy = await measure(pid, () => constantRateInChild("list alone", apiUrl, shape, listSeconds, listRate, connections))
      if (r === 0) await printStatements(`${busy.result.requests} list requests`)
      listRounds.push(roundOf(busy, idle, busy.result.requests))
      listLoads.push(busy.result)
    }

    // 3. Both at once, the resident set sampled throughout.
    log(`  both for ${bothSeconds} s`)
    let rssPeak = 0
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, memoryOf(pid).rss)), 250)
    const bothShape = await listRequest()
    const both = await measure(pid, () =>
      Promise.all([
        constantRateInChild("list with deposits", apiUrl, bothShape, bothSeconds, listRate, connections),
        stream(Math.floor((bothSeconds * 1000) / blockMs))
      ]))
    clearInterval(sampler)
    const { rss: rssEnd, hwm } = memoryOf(pid)
    rssPeak = Math.max(rssPeak, rssEnd)
    const missing = await drain()

    owned.splice(owned.indexOf(service), 1)
    const serviceExit = await stopProcess(service, 20_000)
    return {
      wallets: walletCount,
      rssIdle,
      rssPeak,
      rssEnd,
      hwm,
      blockRounds,
      listRounds,
      list: pooled(listLoads),
      listBoth: pooled([both.result[0]]),
      othersBoth: both.cpu.others / both.seconds,
      deposits: expected.size,
      missing,
      serviceExit,
      loadSeconds
    }
  } finally {
    await Promise.all(owned.map((child) => stopProcess(child, 20_000)))
    for (const close of closers.reverse()) await close()
    await Effect.runPromise(Scope.close(databaseScope, Exit.void))
  }
}

const main = async () => {
  mkdirSync(dataDir, { recursive: true })
  if (build) {
    log("npm run -s build")
    const built = spawnSync("npm", ["run", "-s", "build"], { cwd: repositoryRoot, stdio: "inherit" })
    if (built.status !== 0) throw new Error(`the build failed (exit ${built.status})`)
  }
  const columns: Array<Column> = []
  for (const count of walletCounts) {
    log(`${count.toLocaleString("en")} wallets:`)
    columns.push(await runOne(count))
  }

  const f = (digits: number) => (x: number) => x.toFixed(digits)
  const row = (name: string, cell: (c: Column) => string) => log(`| ${name} | ${columns.map(cell).join(" | ")} |`)
  /** The median round, and the spread of all rounds. */
  const spread = (digits: number, rs: ReadonlyArray<Round>, pick: (r: Round) => number) =>
    `${f(digits)(median(rs.map(pick)))} (${f(digits)(Math.min(...rs.map(pick)))}–${f(digits)(Math.max(...rs.map(pick)))})`
  const postgresSeen = process.env.DATABASE_URL === undefined
  const pgCell = (text: string) => (postgresSeen ? text : "-")
  log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`)
  log(`${tenantCount} tenants (the wallets split evenly, all block_1, webhooks to a local HTTPS receiver); deposit stream: ${rounds} rounds of ${streamBlocks} blocks, one every ${blockMs} ms, ${depositsPerBlock} deposits and ${othersPerBlock} other transfers each; list: one tenant's default page at ${listRate} req/s, ${rounds} rounds of ${listSeconds} s (constant rate, at most ${connections} connections); both: ${bothSeconds} s`)
  log("service: node apps/service/dist/main.js, defaults except TRON_REQUESTS_PER_SECOND=200, API_RATE_PER_SECOND/BURST raised, webhooks to a private target allowed")
  log("CPU figures: the median round (the lowest–highest round); others: CPU of processes outside this benchmark during the windows, in cores\n")
  log(`| | ${columns.map((c) => `${c.wallets.toLocaleString("en")} wallets`).join(" | ")} |`)
  log(`|---|${columns.map(() => "---:").join("|")}|`)
  row("RSS idle, after start (MiB)", (c) => f(0)(c.rssIdle))
  // The goal is in MB (10^6 bytes): 256 MB is 244 MiB.
  row("RSS peak under list + deposits, MiB (MB)", (c) => `${f(0)(c.rssPeak)} (${f(0)((c.rssPeak * 2 ** 20) / 1e6)})`)
  row("RSS at the end of that (MiB)", (c) => f(0)(c.rssEnd))
  row("VmHWM, the high-water mark (MiB)", (c) => f(0)(c.hwm))
  row("idle CPU, service (ms per s)", (c) => spread(1, c.blockRounds, (r) => r.idleService))
  row("idle CPU, PostgreSQL (ms per s)", (c) => pgCell(spread(1, c.blockRounds, (r) => r.idlePostgres)))
  row("CPU per block, service (ms)", (c) => spread(1, c.blockRounds, (r) => r.service))
  row("CPU per block, PostgreSQL (ms)", (c) => pgCell(spread(1, c.blockRounds, (r) => r.postgres)))
  row("others during the blocks (cores)", (c) => spread(2, c.blockRounds, (r) => r.others))
  row("CPU per list request, service (ms)", (c) => spread(2, c.listRounds, (r) => r.service))
  row("CPU per list request, PostgreSQL (ms)", (c) => pgCell(spread(2, c.listRounds, (r) => r.postgres)))
  row("others during the list (cores)", (c) => spread(2, c.listRounds, (r) => r.others))
  row("list alone: req/s, p50 / p99 / max (ms)", (c) => `${f(0)(c.list.rps)}, ${c.list.p50} / ${c.list.p99} / ${c.list.max}`)
  row("list with deposits: p50 / p99 / max (ms)", (c) => `${c.listBoth.p50} / ${c.listBoth.p99} / ${c.listBoth.max}`)
  row("others during both (cores)", (c) => f(2)(c.othersBoth))
  row("list requests failed or not 2xx (alone, with deposits)", (c) => `${c.list.failed}, ${c.listBoth.failed}`)
  row("deposits booked and posted", (c) => `${c.deposits - c.missing}/${c.deposits}`)
  row("service exit code after SIGTERM", (c) => String(c.serviceExit ?? "killed"))
  row("wallet load (s)", (c) => f(0)(c.loadSeconds))
  log("")
  const largest = columns.reduce((a, b) => (b.wallets > a.wallets ? b : a))
  log(`MEMORY npm-start-rss-peak ${largest.rssPeak.toFixed(0)} MiB at ${largest.wallets} wallets`)
  const first = columns[0]!
  const last = columns[columns.length - 1]!
  const growth = (name: string, pick: (c: Column) => number) =>
    log(`GROWTH ${name} ${pick(first).toFixed(2)} -> ${pick(last).toFixed(2)} ms (${(pick(last) / pick(first)).toFixed(2)}x)`)
  growth("scanner-cpu-per-block", (c) => median(c.blockRounds.map((r) => r.service)))
  growth("api-list-cpu-per-request", (c) => median(c.listRounds.map((r) => r.service)))

  for (const c of columns) {
    for (const load of [c.list, c.listBoth]) if (load.firstError !== undefined) log(`${c.wallets} wallets: list requests failed, the first with ${load.firstError}`)
  }
  const failed = columns.filter((c) => c.missing > 0 || c.list.failed + c.listBoth.failed > 0)
  if (failed.length > 0) {
    log(`FAILED at ${failed.map((c) => c.wallets).join(", ")} wallets: deposits not booked or posted, or list requests failing; see .data/bench-growth-<wallets>-service.log`)
    process.exitCode = 1
  }
}

runBenchmark(main)
