/**
 * Deposit latency (issue 21, item 4): from the moment the simulated node serves the block that
 * meets a deposit's confirmation rule to (a) the deposit booked (committed, as seen by a reader of
 * the database) and (b) its first webhook POST arriving at the tenant's receiver, measured on a
 * real worker process (`apps/worker`, its own process and its default settings unless the
 * environment sets them) with a steady stream of deposits to `BENCH_WALLETS` wallets.
 *
 * The benchmark drives the chain: it mines each block itself on a fixed interval, so it knows the
 * moment each block became servable (the time the mine request was sent; the mining itself is
 * counted in the latency). A deposit in block N meets `block_1` when block N is served, and
 * `solidified` when block N + depth is (the node's solidification depth). The booked moment is
 * when a reader polling the deposits every 10 ms first sees it (at most 10 ms late); the POST's is
 * when the receiver has read its headers. Prints a table and the goal lines
 * `LATENCY deposit-booked p99 <ms> ms` and `LATENCY deposit-first-post p99 <ms> ms` (the worst p99
 * over the intervals and rules; first-post is measured from the booked moment).
 *
 * Settings: BENCH_WALLETS (10000), BENCH_BLOCK_MS (`3000,500`: the intervals, one run each),
 * BENCH_DEPOSIT_BLOCKS (40: blocks with deposits per interval), BENCH_DEPOSITS_PER_BLOCK (3 per
 * rule), BENCH_WARMUP_BLOCKS (5: blocks with deposits before the first interval's measured ones),
 * TRON_REQUESTS_PER_SECOND (200 here: an own node, as an operator who cares about latency runs;
 * the worker's default of 10 suits TronGrid and 3-second blocks) and the worker's other variables
 * (its defaults unless set), BENCH_WORKER_LOG (a file for the worker's log; default `.data/bench-latency-worker.log`).
 */
import { Tenants } from "@collector/core"
import { DatabaseAtUrl, PgAccessTokenRepository, PgIdempotencyStore, PgTenantRepository } from "@collector/postgres"
import { TronAddress } from "@collector/tron"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Effect, Exit, Layer, ManagedRuntime, Option, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync, openSync, readFileSync } from "node:fs"
import { cpus, totalmem } from "node:os"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import pg from "pg"
import { freePort, repositoryRoot, startTs, stopAll, waitForHttp } from "../test-support/Processes.js"
import { benchDatabase } from "./support/BenchDatabase.js"
import { percentile } from "./support/Percentile.js"
import { childrenCpu } from "./support/ProcessCpu.js"
import { loadWallets } from "./support/WalletLoad.js"
import { runBenchmark } from "./support/RunBenchmark.js"
import { simPost } from "./support/SimControl.js"
import { startWebhookReceiver, tlsDir } from "./support/WebhookReceiver.js"
import { startTimeoutMs } from "./support/StartTimeout.js"

const walletCount = Number(process.env.BENCH_WALLETS ?? 10_000)
const intervals = (process.env.BENCH_BLOCK_MS ?? "3000,500").split(",").map(Number)
const depositBlocks = Number(process.env.BENCH_DEPOSIT_BLOCKS ?? 40)
const perBlock = Number(process.env.BENCH_DEPOSITS_PER_BLOCK ?? 3)
/** Blocks with deposits before the first measured one: the worker is a long-running process, measured warm. */
const warmupBlocks = Number(process.env.BENCH_WARMUP_BLOCKS ?? 5)
const workerLog = resolve(process.env.BENCH_WORKER_LOG ?? join(repositoryRoot, ".data", "bench-latency-worker.log"))
const requestsPerSecond = process.env.TRON_REQUESTS_PER_SECOND ?? "200"
const rules = ["block_1", "solidified"] as const
type Rule = typeof rules[number]
const log = (line: string) => console.log(line)
/** Milliseconds on one clock for the node's blocks, the database reader and the receiver. */
const now = () => performance.timeOrigin + performance.now()
const sleepUntil = (at: number) => new Promise((done) => setTimeout(done, Math.max(0, at - now())))

interface Booked {
  readonly txid: string
  readonly blockNumber: bigint
  readonly rule: Rule
  readonly eventId: string
  readonly at: number
}

/** Reads newly booked deposits every 10 ms; each is stamped with the first read that saw it. */
const startBookedReader = (client: pg.Client) => {
  const booked = new Map<string, Booked>()
  let last = "0"
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      const rows = (await client.query(
        `SELECT d.id::text AS id, d.txid, d.block_number::text AS block, d.confirmation_type AS rule, e.id::text AS event_id
         FROM deposits d JOIN events e ON e.deposit_id = d.id AND e.revision = 1
         WHERE d.id > $1 ORDER BY d.id`,
        [last]
      )).rows
      const at = now()
      for (const row of rows) {
        booked.set(row.txid.toLowerCase(), { txid: row.txid, blockNumber: BigInt(row.block), rule: row.rule, eventId: row.event_id, at })
        last = row.id
      }
      await new Promise((r) => setTimeout(r, 10))
    }
  })()
  return { booked, stop: async () => ((stopped = true), await loop) }
}

const main = async () => {
  const databaseScope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.extend(benchDatabase("bench-latency"), databaseScope))
  const masterKey = randomBytes(32)
  const database = DatabaseAtUrl(Redacted.make(url), 4)
  const admin = Tenants.TenantAdmin.layer.pipe(
    Layer.provide(Layer.mergeAll(PgTenantRepository.layer, PgAccessTokenRepository.layer, PgIdempotencyStore.layer)),
    Layer.provide([NodeEntropy.layer, AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer))]),
    Layer.provide([MasterKeyring.layer({ current: MasterKey.unsafeMake(masterKey) }), database])
  )
  const adminRuntime = ManagedRuntime.make(admin)
  const created = await adminRuntime.runPromise(Effect.flatMap(Tenants.TenantAdmin, (a) => Effect.forEach(rules, (rule) => a.create(`latency-${rule}`, ["nile"]))))
  await adminRuntime.dispose()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const receiver = await startWebhookReceiver()
  const tenantIds = created.map((c) => String(c.tenant.id))
  for (const [i, id] of tenantIds.entries()) {
    await client.query("UPDATE apps SET confirmation_rule = $2 WHERE tenant_id = $1", [id, rules[i]])
    await client.query("INSERT INTO tenant_settings (tenant_id, network, webhook_url, webhook_enabled) VALUES ($1, 'nile', $2, true)", [
      id,
      `https://localhost:${receiver.port}/hook`
    ])
  }
  await loadWallets(client, tenantIds, Math.floor(walletCount / rules.length), () => {})
  await client.query("VACUUM ANALYZE wallets")
  const walletsOf = new Map<Rule, Array<string>>()
  for (const [i, id] of tenantIds.entries()) {
    walletsOf.set(rules[i]!, (await client.query("SELECT address FROM wallets WHERE tenant_id = $1", [id])).rows.map((r) => r.address as string))
  }

  // The node: blocks only when this benchmark mines them.
  const nodePort = await freePort()
  const nodeUrl = `http://127.0.0.1:${nodePort}`
  startTs("apps/devchain/src/main.ts", { TRON_SIM_PORT: String(nodePort), TRON_SIM_BLOCK_MS: "0", TRON_SIM_SEED: "bench-latency" })
  await waitForHttp(nodeUrl, startTimeoutMs)
  const outside = () => Option.getOrThrow(TronAddress.fromHex(`41${randomBytes(20).toString("hex")}`))
  const senders = Array.from({ length: 8 }, outside)
  for (const to of senders) await simPost(`${nodeUrl}/sim/mint`, { to, amount: "1000000000000000" })
  await simPost(`${nodeUrl}/sim/mine`, { blocks: 30 })
  const state = await simPost(`${nodeUrl}/sim/state`, {})
  const depth = BigInt(state.head.number - state.solidified.number)

  mkdirSync(dirname(workerLog), { recursive: true })
  const worker = startTs("apps/worker/src/main.ts", {
    DATABASE_URL: url,
    MASTER_KEY: masterKey.toString("base64"),
    TRON_NILE_NODE_URL: nodeUrl,
    TRON_REQUESTS_PER_SECOND: requestsPerSecond,
    SCAN_START_BLOCK: String(state.head.number),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    WEBHOOK_EXTRA_CA_FILE: join(tlsDir, "ca.pem"),
    LOG_FORMAT: "json"
  }, { output: openSync(workerLog, "w") })
  const until = now() + 120_000
  while (Number((await client.query("SELECT coalesce(max(block_number), 0) AS n FROM scan_cursors WHERE network = 'nile'")).rows[0].n) < state.head.number) {
    if (now() > until || worker.exitCode !== null) throw new Error(`the worker did not start scanning; its log: ${workerLog}`)
    await new Promise((r) => setTimeout(r, 100))
  }

  const reader = startBookedReader(client)
  /** When each block number was first served as the head. */
  const servedAt = new Map<bigint, number>()
  const rows: Array<{ interval: number; rule: Rule; count: number; booked: Array<number>; posted: Array<number>; missing: number }> = []
  /** The slowest bookings of the run, to see whether they cluster (a block, the start). */
  const slowest: Array<{ interval: number; rule: Rule; block: bigint; slot: number; ms: number }> = []
  let senderIndex = 0
  const firstBlockOf = new Map<number, bigint>()
  const cpuBefore = childrenCpu(worker.pid)
  for (const interval of intervals) {
    const expected = new Map<string, Rule>()
    const started = now()
    let mined = 0
    firstBlockOf.set(interval, BigInt((await simPost(`${nodeUrl}/sim/state`, {})).head.number) + 1n)
    const mineAt = async (slot: number) => {
      await sleepUntil(started + slot * interval)
      const at = now()
      const blocks = (await simPost(`${nodeUrl}/sim/mine`, { blocks: 1 })).blocks as Array<{ number: number }>
      servedAt.set(BigInt(blocks[0]!.number), at)
      mined++
    }
    const warmup = interval === intervals[0] ? warmupBlocks : 0
    for (let b = 0; b < warmup + depositBlocks; b++) {
      const transfers: Array<Promise<unknown>> = []
      for (const rule of rules) {
        const wallets = walletsOf.get(rule)!
        for (let i = 0; i < perBlock; i++) {
          const to = wallets[Math.floor(Math.random() * wallets.length)]!
          transfers.push(
            simPost(`${nodeUrl}/sim/transfer`, { from: senders[senderIndex++ % senders.length], to, amount: String(1_000_000 + Math.floor(Math.random() * 1e9)) })
              .then((r) => b >= warmup && expected.set(String(r.txid).toLowerCase(), rule))
          )
        }
      }
      // Traffic to others in the same blocks, as on a real chain.
      for (let i = 0; i < 20; i++) transfers.push(simPost(`${nodeUrl}/sim/transfer`, { from: senders[senderIndex++ % senders.length], to: outside(), amount: "1000" }))
      await Promise.all(transfers)
      await mineAt(mined + 1)
    }
    // Blocks without deposits until the last deposit block is solidified, and a few more.
    for (let b = 0n; b < depth + 3n; b++) await mineAt(mined + 1)
    const waitUntil = now() + 30_000
    const done = () => [...expected.keys()].every((txid) => reader.booked.has(txid) && receiver.firstPost.has(reader.booked.get(txid)!.eventId))
    while (!done() && now() < waitUntil) await new Promise((r) => setTimeout(r, 50))
    for (const rule of rules) {
      const txids = [...expected].filter(([, r]) => r === rule).map(([txid]) => txid)
      const booked: Array<number> = []
      const posted: Array<number> = []
      let missing = 0
      for (const txid of txids) {
        const deposit = reader.booked.get(txid)
        const post = deposit === undefined ? undefined : receiver.firstPost.get(deposit.eventId)
        if (deposit === undefined || post === undefined) {
          missing++
          continue
        }
        const meets = rule === "block_1" ? deposit.blockNumber : deposit.blockNumber + depth
        const served = servedAt.get(meets)
        if (served === undefined) throw new Error(`block ${meets} was not mined by this run`)
        booked.push(deposit.at - served)
        slowest.push({ interval, rule, block: deposit.blockNumber, slot: Number(meets - firstBlockOf.get(interval)!), ms: deposit.at - served })
        posted.push(post - deposit.at)
      }
      rows.push({ interval, rule, count: txids.length, booked, posted, missing })
    }
  }
  await reader.stop()
  const workerCpu = Option.zipWith(childrenCpu(worker.pid), cpuBefore, (after, before) => after.sim - before.sim)
  const blocksMined = servedAt.size
  const workerRss = Number(readFileSync(`/proc/${worker.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024
  worker.kill("SIGTERM")
  receiver.close()
  await client.end()
  stopAll()
  await Effect.runPromise(Scope.close(databaseScope, Exit.void))

  const ms = (values: Array<number>, p: number) => (values.length === 0 ? "-" : percentile(values, p).toFixed(0))
  log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`)
  log(`${walletCount.toLocaleString("en")} wallets (two tenants: block_1 and solidified), ${depositBlocks} blocks with ${perBlock} deposits per rule and 20 other transfers each, solidification depth ${depth}; worker RSS at the end ${workerRss.toFixed(0)} MiB; worker CPU ${Option.match(workerCpu, { onNone: () => "?", onSome: (s) => `${((s * 1000) / blocksMined).toFixed(1)} ms per block` })} over ${blocksMined} blocks`)
  log(`worker settings: TRON_REQUESTS_PER_SECOND=${requestsPerSecond}; the rest its defaults unless set in this environment (SCAN_POLL_MS, NOTIFIER_POLL_MS, ...)\n`)
  log("| block interval | rule | deposits | served → booked p50 / p99 / max (ms) | booked → first POST p50 / p99 / max (ms) | not seen |")
  log("|---:|---|---:|---:|---:|---:|")
  for (const r of rows) {
    log(`| ${r.interval} ms | ${r.rule} | ${r.count} | ${ms(r.booked, 50)} / ${ms(r.booked, 99)} / ${ms(r.booked, 100)} | ${ms(r.posted, 50)} / ${ms(r.posted, 99)} / ${ms(r.posted, 100)} | ${r.missing} |`)
  }
  log("\nslowest bookings (interval, rule, deposit block, blocks into the interval's run of the block that met the rule, ms):")
  for (const s of slowest.sort((a, b) => b.ms - a.ms).slice(0, 8)) log(`  ${s.interval} ms ${s.rule} block ${s.block} (+${s.slot}) ${s.ms.toFixed(0)} ms`)
  const worst = (pick: (r: typeof rows[number]) => Array<number>) => Math.max(...rows.map((r) => (pick(r).length === 0 ? Infinity : percentile(pick(r), 99))))
  log("")
  log(`LATENCY deposit-booked p99 ${worst((r) => r.booked).toFixed(0)} ms`)
  log(`LATENCY deposit-first-post p99 ${worst((r) => r.posted).toFixed(0)} ms`)
  if (rows.some((r) => r.missing > 0)) {
    log(`some deposits were not booked or not delivered within 30 s; the worker's log: ${workerLog}`)
    process.exitCode = 1
  }
}

runBenchmark(main)
