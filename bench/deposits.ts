/**
 * Deposit scanner catch-up on mainnet-shaped blocks with a million wallets loaded: blocks per
 * second that the worker's scanner (fetch, match against all wallets, store, confirm, one
 * transaction per batch) works through a backlog on the simulated node, beside the chain
 * adapter's own fetch-and-parse ceiling for the same blocks, in one run. Run with
 * `npm run bench:deposits` (BENCH_WALLETS, BENCH_BLOCKS, BENCH_FETCH_CONCURRENCY, BENCH_BATCH_BLOCKS, BENCH_ROUNDS;
 * BENCH_CLIENTS=node or fetch for one HTTP client only; BENCH_TIMING=1 sums the latency of each ledger
 * and book call of the catch-up; BENCH_CPU_PROF=1 profiles this process over
 * each scanner catch-up, BENCH_SIM_CPU_PROF=1 the simulated node, under `.data/profiles`).
 */
import { Chain, Engine, Scanning } from "@collector/core"
import { DatabaseAtUrl, PgBalanceLedger, PgComponentStatus, PgDepositBook, PgScanLedger } from "@collector/postgres"
import { WorkerProcess } from "@collector/server"
import { TronAddress } from "@collector/tron"
import { defaultNodeConfig, nodeHttpClient } from "@collector/tron-node"
import { MasterKey, MasterKeyring } from "@collector/vault"
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Duration, Effect, Exit, Layer, ManagedRuntime, Option, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { cpus, totalmem } from "node:os"
import pg from "pg"
import { freePort, startTs, waitForHttp } from "../test-support/Processes.js"
import { benchDatabase } from "./support/BenchDatabase.js"
import { ratioLine } from "./support/FairReference.js"
import { childProfileFlags, phaseProfiler } from "./support/CpuProfile.js"
import { makePortTiming } from "./support/PortTiming.js"
import { childrenCpu } from "./support/ProcessCpu.js"
import { loadWallets } from "./support/WalletLoad.js"
import { runBenchmark } from "./support/RunBenchmark.js"
import { simPost } from "./support/SimControl.js"
import { startTimeoutMs } from "./support/StartTimeout.js"

const totalWallets = Number(process.env.BENCH_WALLETS ?? 1_000_000)
const tenants = 10
const blockCount = Number(process.env.BENCH_BLOCKS ?? 200)
const usdtPerBlock = 150
const otherPerBlock = 150
/** The scanner's SCAN_FETCH_CONCURRENCY and SCAN_BATCH_BLOCKS as an operator sets them for catch-up from an own node (docs/scanner.md). */
const fetchConcurrency = Number(process.env.BENCH_FETCH_CONCURRENCY ?? 16)
const batchBlocks = Number(process.env.BENCH_BATCH_BLOCKS ?? 100)
/** Timed rounds of each measure, after an untimed one. */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const log = (line: string) => console.log(line)

const outsideAddress = () => Option.getOrThrow(TronAddress.fromHex(`41${randomBytes(20).toString("hex")}`))

const pool = async (tasks: ReadonlyArray<() => Promise<unknown>>, limit: number) => {
  let next = 0
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < tasks.length) await tasks[next++]!()
  }))
}

/** Counts the node calls made through a client. */
const counting = (client: Layer.Layer<HttpClient.HttpClient>, counter: { calls: number }) =>
  Layer.effect(HttpClient.HttpClient, Effect.map(HttpClient.HttpClient, HttpClient.tapRequest(() => Effect.sync(() => void counter.calls++)))).pipe(
    Layer.provide(client)
  )

const main = async () => {
  // The embedded server (when no DATABASE_URL) lives as long as this scope: the whole run.
  const databaseScope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.extend(benchDatabase("bench-deposits"), databaseScope))
  const client = new pg.Client({ connectionString: url })
  // BENCH_TIMING=1: the summed latency of every ledger, book and node call of the timed catch-up rounds.
  const timing = process.env.BENCH_TIMING === "1" ? makePortTiming() : undefined
  const scanLedger = timing === undefined ? PgScanLedger.layer : timing.instrumented(Scanning.ScanLedger, "ledger").pipe(Layer.provide(PgScanLedger.layer))
  const depositBook = timing === undefined ? PgDepositBook.layer : timing.instrumented(Scanning.DepositBook, "book").pipe(Layer.provide(PgDepositBook.layer))
  const database = DatabaseAtUrl(Redacted.make(url), 20)
  const storage = Layer.mergeAll(scanLedger, depositBook, PgComponentStatus.layer, PgBalanceLedger.layer).pipe(
    Layer.provideMerge(database)
  )
  const storageRuntime = ManagedRuntime.make(storage)
  await storageRuntime.runPromise(Effect.void)
  await client.connect()

  // Tenants: half confirm after one block, half at solidification.
  const tenantIds: Array<string> = []
  for (let i = 0; i < tenants; i++) {
    const row = (await client.query("INSERT INTO tenants (name) VALUES ($1) RETURNING id::text AS id", [`bench-${i}`])).rows[0]
    await client.query(
      `INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed, confirmation_rule)
       VALUES ($1, 'nile', 'k', $2, 'k', $2, $3)`,
      [row.id, randomBytes(16), i % 2 === 0 ? "block_1" : "solidified"]
    )
    tenantIds.push(row.id)
  }
  const loadStarted = performance.now()
  await loadWallets(client, tenantIds, Math.floor(totalWallets / tenants), (done) => {
    if (done % 200_000 === 0) log(`loaded ${done} wallets`)
  })
  await client.query("VACUUM ANALYZE wallets")
  log(`loaded ${totalWallets} wallets across ${tenants} tenants in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`)

  // The simulated node in its own process, blocks only on demand.
  const port = await freePort()
  const nodeUrl = `http://127.0.0.1:${port}`
  const sim = startTs("apps/devchain/src/main.ts", { TRON_SIM_PORT: String(port), TRON_SIM_BLOCK_MS: "0", TRON_SIM_SEED: "bench-deposits" }, {
    nodeArgs: childProfileFlags(process.env.BENCH_SIM_CPU_PROF === "1")
  })
  await waitForHttp(nodeUrl, startTimeoutMs)
  const senders = Array.from({ length: 150 }, outsideAddress)
  await pool(senders.map((to) => () => simPost(`${nodeUrl}/sim/mint`, { to, amount: "1000000000000000" })), 16)
  await simPost(`${nodeUrl}/sim/mine`, { blocks: 1 })

  // 1% of USDT transfers go to tenant wallets: 1 and 2 in alternate blocks.
  const toTenant = Math.round(blockCount * usdtPerBlock * 0.01)
  // Row sampling sized to about ten times the need: a 1% page sample (SYSTEM) of 10,000 wallets
  // often returned no row at all, and the catch-up then booked nothing.
  const samplePercent = Math.min(100, (toTenant * 1000) / totalWallets)
  const targets = (await client.query(`SELECT address FROM wallets TABLESAMPLE BERNOULLI (${samplePercent}) LIMIT $1`, [toTenant])).rows.map((r) => r.address as string)
  if (targets.length < toTenant) throw new Error(`sampled ${targets.length} tenant wallets of the ${toTenant} the blocks need`)
  let targetIndex = 0
  const numbers: Array<bigint> = []
  const prepareStarted = performance.now()
  for (let b = 0; b < blockCount; b++) {
    const tenantCount = b % 2 === 0 ? 1 : 2
    const tasks: Array<() => Promise<unknown>> = []
    for (let i = 0; i < usdtPerBlock; i++) {
      const to = i < tenantCount && targetIndex < targets.length ? targets[targetIndex++]! : outsideAddress()
      tasks.push(() => simPost(`${nodeUrl}/sim/transfer`, { from: senders[(b + i) % senders.length], to, amount: String(1 + Math.floor(Math.random() * 1e9)) }))
    }
    for (let i = 0; i < otherPerBlock; i++) {
      tasks.push(() => simPost(`${nodeUrl}/sim/transfer`, { token: "TRX", to: outsideAddress(), amount: String(1 + Math.floor(Math.random() * 1e8)) }))
    }
    await pool(tasks, 16)
    const mined = (await simPost(`${nodeUrl}/sim/mine`, { blocks: 1 })).blocks as Array<{ number: number }>
    numbers.push(BigInt(mined[0]!.number))
    if ((b + 1) % 50 === 0) log(`prepared ${b + 1}/${blockCount} blocks (${((performance.now() - prepareStarted) / 1000).toFixed(0)} s)`)
  }
  // Twenty more blocks, so that every prepared block is solidified and every rule is met.
  await simPost(`${nodeUrl}/sim/mine`, { blocks: 20 })
  const expectedDeposits = targetIndex

  const node = defaultNodeConfig("nile", {
    fullNodeUrl: nodeUrl,
    solidityUrl: nodeUrl,
    requestsPerSecond: 1_000_000,
    requestTimeout: Duration.seconds(30),
    retries: 0
  })
  const settings = {
    ...Engine.defaultEngineSettings,
    scanner: { batchBlocks, fetchConcurrency, startBlock: numbers[0]! },
    // As the worker runs: several batches per pass, so the next batch is fetched while one is stored.
    loop: { ...Scanning.defaultScannerLoopSettings, batchesPerPass: 10, integrityInterval: Duration.days(1) },
    processName: "bench-deposits"
  }
  /**
   * The engine as the worker assembles it, over `http` to the node; the (possibly timed) scan
   * ledger and deposit book come first, the rest of its ports are the worker's own.
   */
  const engineOver = (http: Layer.Layer<HttpClient.HttpClient>) =>
    Engine.Engine.layer("nile", settings).pipe(
      Layer.provideMerge(WorkerProcess.networkAdapters({ node, energyProvider: { kind: "none", network: "nile" } }, http)),
      Layer.provideMerge(storage),
      Layer.provide(WorkerProcess.sharedAdapters({ allowPrivateTargets: false }).pipe(
        Layer.provide(Layer.merge(database, MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })))
      ))
    )
  const clients = ([["fetch", "fetch (FetchHttpClient)", FetchHttpClient.layer], ["node", "node:http (kept connections)", nodeHttpClient()]] as const)
    .filter(([key]) => process.env.BENCH_CLIENTS === undefined || process.env.BENCH_CLIENTS === key)
  const rows: Array<{ name: string; blocksPerSecond: number; callsPerBlock: number; note: string; cpu: string }> = []
  /** CPU milliseconds per block of this process, the simulated node and the embedded PostgreSQL since `before`. */
  const cpuSince = (before: { own: NodeJS.CpuUsage; children: ReturnType<typeof childrenCpu> }, blocks: number) => {
    const own = process.cpuUsage(before.own)
    const perBlock = (seconds: number) => ((seconds * 1000) / blocks).toFixed(2)
    const children = Option.zipWith(childrenCpu(sim.pid), before.children, (after, start) => ({ sim: after.sim - start.sim, rest: after.rest - start.rest }))
    const bench = perBlock((own.user + own.system) / 1e6)
    return Option.match(children, {
      onNone: () => `${bench} / ? / ?`,
      onSome: (c) => `${bench} / ${perBlock(c.sim)} / ${process.env.DATABASE_URL === undefined ? perBlock(c.rest) : "?"}`
    })
  }
  let peakRss = 0
  const sampleRss = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100)
  // Every block the catch-up reads: the prepared ones and the empty ones after them.
  const scannedNumbers = [...numbers, ...Array.from({ length: 20 }, (_, i) => numbers[numbers.length - 1]! + BigInt(i + 1))]
  for (const [clientKey, clientName, http] of clients) {
    const counter = { calls: 0 }
    const runtime = ManagedRuntime.make(engineOver(counting(http, counter)))
    // Ceiling: the adapter alone, the same blocks with the same number in flight; one untimed round
    // first, so that both measures run warm code (the worker is a long-running process).
    const fetchAll = Effect.flatMap(Chain.Chain, (chain) =>
      Effect.forEach(scannedNumbers, (n) => chain.blockTransfers(n), { concurrency: fetchConcurrency, discard: true }))
    await runtime.runPromise(fetchAll)
    counter.calls = 0
    let cpuBefore = { own: process.cpuUsage(), children: childrenCpu(sim.pid) }
    let started = performance.now()
    for (let round = 0; round < rounds; round++) await runtime.runPromise(fetchAll)
    let seconds = (performance.now() - started) / 1000
    const fetched = scannedNumbers.length * rounds
    rows.push({
      name: `ceiling: adapter fetch + parse, ${clientName}`,
      blocksPerSecond: fetched / seconds,
      callsPerBlock: counter.calls / fetched,
      note: `${rounds} rounds of ${scannedNumbers.length} blocks`,
      cpu: cpuSince(cpuBefore, fetched)
    })

    // Catch-up: the worker's scanner pass after pass from the first prepared block to the head,
    // from a fresh cursor and empty books each round; the first round is untimed, like the ceiling's.
    const catchUp = async () => {
      await runtime.runPromise(Effect.flatMap(Scanning.ScanLedger, (ledger) => ledger.forget("nile")))
      await client.query("DELETE FROM events; DELETE FROM deposits; DELETE FROM deposit_totals")
      const started = performance.now()
      const passes = await runtime.runPromise(Effect.gen(function*() {
        const engine = yield* Engine.Engine
        let count = 0
        while (!(yield* engine.scanOnce)) count++
        return count + 1
      }))
      const seconds = (performance.now() - started) / 1000
      const booked = Number((await client.query("SELECT count(*) AS n FROM deposits WHERE status = 'confirmed'")).rows[0].n)
      return { seconds, passes, booked }
    }
    await catchUp()
    counter.calls = 0
    const profiler = phaseProfiler(process.env.BENCH_CPU_PROF === "1", `scanner-${clientKey}`)
    await profiler.start()
    // The CPU figures include the small reset between rounds; the time does not.
    cpuBefore = { own: process.cpuUsage(), children: childrenCpu(sim.pid) }
    seconds = 0
    const outcomes: Array<{ passes: number; booked: number }> = []
    timing?.reset()
    timing?.start()
    for (let round = 0; round < rounds; round++) {
      const outcome = await catchUp()
      seconds += outcome.seconds
      outcomes.push(outcome)
    }
    timing?.stop()
    if (timing !== undefined) log(`catch-up, ${clientName}: summed latency of the ledger and book calls: ${timing.summary()}`)
    const scanned = scannedNumbers.length * rounds
    const cpuText = cpuSince(cpuBefore, scanned)
    const profileFile = await profiler.stop()
    if (profileFile !== undefined) log(`CPU profile of the catch-up: ${profileFile}`)
    rows.push({
      name: `scanner catch-up (match against ${totalWallets.toLocaleString("en")} wallets, store, confirm), ${clientName}`,
      blocksPerSecond: scanned / seconds,
      callsPerBlock: counter.calls / scanned,
      note: `${outcomes.map((o) => `${o.booked}/${expectedDeposits}`).join(", ")} deposits booked; ${outcomes.map((o) => o.passes).join(", ")} passes`,
      cpu: cpuText
    })
    if (outcomes.some((o) => o.booked !== expectedDeposits)) process.exitCode = 1
    await runtime.dispose()
  }
  clearInterval(sampleRss)
  await client.end()
  await storageRuntime.dispose()
  await Effect.runPromise(Scope.close(databaseScope, Exit.void))

  const f = (x: number, digits = 0) => x.toFixed(digits)
  log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`)
  log(`blocks: ${numbers.length} prepared (${usdtPerBlock} USDT transfers with a Transfer log each, ${otherPerBlock} TRX transfers; ${expectedDeposits} of the USDT transfers to tenant wallets), then 20 empty`)
  log(`scanner: ${batchBlocks} blocks per transaction, ${fetchConcurrency} blocks fetched at once; simulator in its own process; peak RSS of the benchmark process ${f(peakRss / 2 ** 20)} MiB`)
  log(`each measure: one untimed round, then ${rounds} timed rounds over the same ${scannedNumbers.length} blocks (the catch-up from a fresh cursor and empty books each round)\n`)
  log("| measure | blocks/s | node calls per block | vs ceiling (same client) | CPU ms per block: bench / node / PostgreSQL | note |")
  log("|---|---:|---:|---:|---:|---|")
  rows.forEach((r, i) => {
    const ceiling = rows[i - (i % 2)]!.blocksPerSecond
    log(`| ${r.name} | ${f(r.blocksPerSecond, 1)} | ${f(r.callsPerBlock, 2)} | ${f((r.blocksPerSecond / ceiling) * 100)}% | ${r.cpu} | ${r.note} |`)
  })
  // Issue 36's goal line: the catch-up over the worker's client (node:http) against the adapter's
  // fetch-and-parse ceiling of the same blocks over the same client (no matching, no booking).
  const nodeRows = clients.findIndex(([key]) => key === "node")
  if (nodeRows >= 0) log(`\n${ratioLine("deposits-catchup", rows[nodeRows * 2 + 1]!.blocksPerSecond, rows[nodeRows * 2]!.blocksPerSecond)}`)
}

runBenchmark(main)
