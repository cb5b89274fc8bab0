/**
 * Webhook deliveries per second: the worker's dispatcher (claim, seal with a fresh nonce, check
 * the URL, HTTPS POST, record the attempt and the outcome) against a local HTTPS receiver that
 * acknowledges at once, beside a bare Node HTTPS client posting the same sealed bodies to the
 * same receiver, in one run. Run with `npm run bench:deliveries` (BENCH_EVENTS, BENCH_IN_FLIGHT;
 * BENCH_CPU_PROF=1 writes a CPU profile of the dispatch phase under `.data/profiles`;
 * BENCH_INSTANT_TRANSPORT=1 replaces the POST by an immediate 200, to measure the rest;
 * BENCH_PG_STATEMENTS=1 prints PostgreSQL's time per statement (embedded server only);
 * BENCH_TABLE_STATS=1 prints the rows inserted and updated in the delivery tables, and how many
 * updates stayed on their page without index writes).
 */
import { type EventId, roundDeadline, TenantAdmin } from "@collector/core"
import { DeliveryLedger } from "@collector/core"
import { DeliveryTransport } from "@collector/core"
import { WebhookTargets } from "@collector/core"
import { Dispatcher } from "@collector/core"
import {
  DatabaseAtUrl,
  PgAccessTokenRepository,
  PgComponentStatus,
  PgIdempotencyStore,
  PgTenantRepository
} from "@collector/postgres"
import { PgDeliveryLedger } from "@collector/postgres"
import { insertEvents } from "@collector/postgres"
import { SqlClient } from "@effect/sql"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { sealEnvelope, WebhookEnvelopeSealer } from "@collector/api"
import { WebhookDelivery } from "@collector/outbound"
import { Effect, Either, Exit, Fiber, Layer, ManagedRuntime, Option, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { Agent, createServer, request } from "node:https"
import type { AddressInfo } from "node:net"
import { cpus, totalmem } from "node:os"
import { monitorEventLoopDelay, performance } from "node:perf_hooks"
import { join } from "node:path"
import pg from "pg"
import { repositoryRoot } from "../test-support/Processes.js"
import { benchDatabase } from "./support/BenchDatabase.js"
import { phaseProfiler } from "./support/CpuProfile.js"
import { makePortTiming } from "./support/PortTiming.js"
import { childrenCpu } from "./support/ProcessCpu.js"

const events = Number(process.env.BENCH_EVENTS ?? 20_000)
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 64)
const dispatcherInFlight = Number(process.env.BENCH_DISPATCHER_IN_FLIGHT ?? inFlight)
const tenants = 10
const tlsDir = join(repositoryRoot, "test-fixtures", "tls")
const log = (line: string) => console.log(line)

// The dispatcher may deliver to the loopback receiver only with the operator's private-target
// setting and the test CA; both are read from the environment when its layer is built.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true"
process.env.WEBHOOK_EXTRA_CA_FILE = join(tlsDir, "ca.pem")

/** A receiver that acknowledges every delivery at once and counts them. */
const startReceiver = () =>
  new Promise<{ port: number; count: () => number; connections: () => number; close: () => void }>((done) => {
    let received = 0
    let connections = 0
    const server = createServer({ key: readFileSync(join(tlsDir, "server.key")), cert: readFileSync(join(tlsDir, "server.pem")) }, (req, res) => {
      req.resume()
      req.on("end", () => {
        received++
        res.writeHead(200, { "content-type": "application/json" }).end('{"code":0}')
      })
    })
    server.on("secureConnection", () => connections++)
    server.listen(0, "127.0.0.1", () =>
      done({ port: (server.address() as AddressInfo).port, count: () => received, connections: () => connections, close: () => server.close() }))
  })

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system

/** The bare client: `count` POSTs of the bodies, `concurrency` at a time, through `agent`. */
const bareClient = async (port: number, bodies: ReadonlyArray<string>, count: number, concurrency: number, agent: Agent) => {
  let next = 0
  let failures = 0
  const started = performance.now()
  const cpu = process.cpuUsage()
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const body = bodies[next++ % bodies.length]!
      const ok = await new Promise<boolean>((done) => {
        const req = request({
          host: "127.0.0.1",
          servername: "localhost",
          port,
          method: "POST",
          path: "/hook",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-app-id": "1", "x-event-id": "1", "x-event-type": "deposit.confirmed" }
        }, (res) => {
          let text = ""
          res.on("data", (chunk) => (text += chunk))
          res.on("end", () => done(res.statusCode === 200 && JSON.parse(text).code === 0))
        })
        req.on("error", () => done(false))
        req.end(body)
      })
      if (!ok) failures++
    }
  }))
  const used = process.cpuUsage(cpu)
  return { perSecond: count / ((performance.now() - started) / 1000), failures, cpuMicros: cpuMicros(used) / count, systemMicros: used.system / count }
}

const main = async () => {
  const databaseScope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.extend(benchDatabase("bench-deliveries"), databaseScope))
  const keyring = MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })
  const database = DatabaseAtUrl(Redacted.make(url), 20)
  const admin = TenantAdmin.layer.pipe(
    Layer.provide(Layer.mergeAll(PgTenantRepository.layer, PgAccessTokenRepository.layer, PgIdempotencyStore.layer)),
    Layer.provide([NodeEntropy.layer, AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer))]),
    Layer.provide([keyring, database])
  )
  const receiver = await startReceiver()
  const client = new pg.Client({ connectionString: url })
  const adminRuntime = ManagedRuntime.make(admin)
  const created = await adminRuntime.runPromise(Effect.flatMap(TenantAdmin, (a) =>
    Effect.forEach(Array.from({ length: tenants }, (_, i) => `bench-${i}`), (name) => a.create(name, ["nile"]))))
  await client.connect()

  // Every tenant's webhook points at the receiver; the events wait in the outbox, due now.
  const target = `https://localhost:${receiver.port}/hook`
  for (const c of created) {
    await client.query(
      `INSERT INTO tenant_settings (tenant_id, network, webhook_url, webhook_enabled) VALUES ($1, 'nile', $2, true)`,
      [c.tenant.id, target]
    )
  }
  const payload = (i: number) =>
    JSON.stringify({
      id: String(1000 + i), event_id: "0", event_type: "deposit.confirmed", status: "confirmed", wallet_id: String(i), custom_id: `c-${i}`,
      chain: "TRON", network: "nile", asset: "USDT", token_standard: "TRC20", decimals: 6, address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
      source: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", contract: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", amount: "12345678",
      txid: randomBytes(32).toString("hex"), log_index: 0, block_number: "1000123", block_time: "2026-11-22T01:00:00.000000Z",
      created_at: "2026-11-22T01:00:03.000000Z", revision: 1, confirmation_type: "block_1", confirmations: 1, block_hash: randomBytes(32).toString("hex")
    })
  const insertStarted = performance.now()
  const outbox = ManagedRuntime.make(database)
  for (let start = 0; start < events; start += 5000) {
    const n = Math.min(5000, events - start)
    await outbox.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ids = yield* sql<{ id: string }>`SELECT nextval('task_event_id_seq')::text AS id FROM generate_series(1, ${n})`
      const now = new Date()
      yield* insertEvents(sql, ids.map(({ id }, i) => ({
        id: id as EventId, tenantId: created[(start + i) % tenants]!.tenant.id, network: "nile", eventType: "deposit.confirmed",
        deposit: null, payload: payload(start + i), dueAt: now, deadlineAt: roundDeadline(now), createdAt: now
      })))
    }))
  }
  await outbox.dispose()
  log(`outbox: ${events} due events for ${tenants} tenants (inserted in ${((performance.now() - insertStarted) / 1000).toFixed(1)} s)`)

  // The bare client, with the same sealed bodies (one per event) and the same concurrency.
  const key = randomBytes(32)
  const bodies = Array.from({ length: 1000 }, (_, i) =>
    JSON.stringify(sealEnvelope({ key, plaintext: payload(i), timestamp: new Date().toISOString(), nonce: randomBytes(12) })))
  const ca = readFileSync(join(tlsDir, "ca.pem"))
  // BENCH_DISPATCHER_ONLY=1 skips the references (for profiling the dispatcher alone).
  const onlyDispatcher = process.env.BENCH_DISPATCHER_ONLY === "1"
  if (!onlyDispatcher) await bareClient(receiver.port, bodies, 2000, inFlight, new Agent({ keepAlive: true, ca }))
  const bareKeepAlive = onlyDispatcher
    ? { perSecond: 1, failures: 0, cpuMicros: 0, systemMicros: 0 }
    : await bareClient(receiver.port, bodies, events, inFlight, new Agent({ keepAlive: true, maxSockets: inFlight, ca }))
  const bareFresh = onlyDispatcher
    ? { perSecond: 1, failures: 0, cpuMicros: 0, systemMicros: 0 }
    : await bareClient(receiver.port, bodies, Math.min(events, 5000), inFlight, new Agent({ keepAlive: false, ca }))

  // The dispatcher, as the worker runs it, until the outbox is delivered.
  // Webhook URL checks and HTTPS delivery from the WEBHOOK_* settings set above.
  const OutboundLive = WebhookDelivery.layerConfig()
  // BENCH_TIMING=1 times every ledger, URL check and transport call (count, total and mean milliseconds).
  const timing = process.env.BENCH_TIMING === "1" ? makePortTiming() : undefined
  timing?.start()
  const ledger = timing === undefined ? PgDeliveryLedger.layer : timing.instrumented(DeliveryLedger, "ledger").pipe(Layer.provide(PgDeliveryLedger.layer))
  // BENCH_INSTANT_TRANSPORT=1: every POST answers 200 at once without a request, which leaves the
  // dispatcher's own work per delivery (claim, key, URL check, seal, record) to be measured.
  const instant = process.env.BENCH_INSTANT_TRANSPORT === "1"
    ? Layer.succeed(DeliveryTransport, DeliveryTransport.of({
      postEach: (requests, settled) =>
        Effect.sync(() => requests.forEach((_, i) => settled(i, Either.right({ status: 200, body: '{"code":0}', truncated: false, location: null }))))
    }))
    : undefined
  const outbound = instant !== undefined ? Layer.merge(OutboundLive, instant) : timing === undefined ? OutboundLive : Layer.merge(
    timing.instrumented(DeliveryTransport, "transport"),
    timing.instrumented(WebhookTargets, "targets")
  ).pipe(Layer.provide(OutboundLive))
  const runtime = ManagedRuntime.make(Dispatcher.layer({ maxInFlight: dispatcherInFlight, perTenant: Math.ceil(dispatcherInFlight / 2) }).pipe(
    Layer.provide(Layer.mergeAll(ledger, PgComponentStatus.layer, AesGcmSecretBox.layer, WebhookEnvelopeSealer.layer, outbound).pipe(Layer.provide(NodeEntropy.layer))),
    Layer.provide([keyring, database])
  ))
  // The layer (CA list, TLS context, pool) is built before the clock starts, as a worker does at start.
  const buildStarted = performance.now()
  await runtime.runtime()
  const buildMs = performance.now() - buildStarted
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  const loopUse = performance.eventLoopUtilization()
  loopDelay.enable()
  const before = receiver.count()
  const connectionsBefore = receiver.connections()
  // BENCH_CPU_PROF=1: a CPU profile of this process (dispatcher and receiver) during dispatch.
  const profiler = phaseProfiler(process.env.BENCH_CPU_PROF === "1", "dispatch")
  await profiler.start()
  const started = performance.now()
  const cpuStart = process.cpuUsage()
  const databaseCpuStart = childrenCpu(undefined)
  const statements = process.env.BENCH_PG_STATEMENTS === "1"
  if (statements) {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    await client.query("SELECT pg_stat_statements_reset()")
  }
  const fiber = runtime.runFork(Effect.flatMap(Dispatcher, (d) => d.run("nile", "bench")))
  let delivered = 0
  let peakRss = 0
  while (delivered < events) {
    await new Promise((r) => setTimeout(r, 100))
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
    // Through the index of open events, which shrinks as they are delivered: a count of the
    // delivered ones read the whole table ten times a second, on PostgreSQL's measured CPU.
    const open = Number((await client.query("SELECT count(*) AS n FROM events WHERE network = 'nile' AND status IN ('pending', 'delivering')")).rows[0].n)
    delivered = events - open
    if (performance.now() - started > 600_000) break
  }
  const seconds = (performance.now() - started) / 1000
  const dispatchCpu = process.cpuUsage(cpuStart)
  const dispatchCpuMicros = cpuMicros(dispatchCpu) / delivered
  const databaseCpuMicros = Option.map(Option.all([databaseCpuStart, childrenCpu(undefined)]), ([a, b]) => ((b.rest - a.rest) * 1e6) / delivered)
  // Open events run out when every event has ended, delivered or not: count the delivered ones.
  delivered = Number((await client.query("SELECT count(*) AS n FROM events WHERE status = 'delivered'")).rows[0].n)
  const profileFile = await profiler.stop()
  if (profileFile !== undefined) log(`CPU profile of the dispatch: ${profileFile}`)
  loopDelay.disable()
  const loopBusy = performance.eventLoopUtilization(loopUse).utilization
  await runtime.runPromise(Fiber.interrupt(fiber))
  const attempts = (await client.query(
    "SELECT count(*) AS n, count(*) FILTER (WHERE outcome = 'delivered' AND ended_at IS NOT NULL AND http_status = 200) AS ok FROM delivery_attempts"
  )).rows[0]
  const rounds = Number((await client.query("SELECT count(*) AS n FROM delivery_rounds")).rows[0].n)
  const statementRows = statements
    ? (await client.query(
      `SELECT calls, total_exec_time AS exec_ms, total_plan_time AS plan_ms, rows, shared_blks_hit + shared_blks_read AS blocks,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS query
       FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 8`
    )).rows
    : []
  if (process.env.BENCH_TABLE_STATS === "1") {
    const stats = await client.query(
      "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname IN ('events', 'delivery_rounds', 'delivery_attempts') ORDER BY relname")
    for (const row of stats.rows) log(`table ${row.relname}: ${row.n_tup_ins} inserted, ${row.n_tup_upd} updated (${row.n_tup_hot_upd} HOT)`)
  }
  const dispatcherRate = delivered / seconds

  await runtime.dispose()
  await adminRuntime.dispose()
  await client.end()
  receiver.close()
  await Effect.runPromise(Scope.close(databaseScope, Exit.void))

  const f = (x: number, digits = 0) => x.toFixed(digits)
  log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`)
  log(`receiver: node:https on loopback, test certificate, acknowledges at once; ${inFlight} in flight; payload ${payload(0).length} bytes\n`)
  log("| measure | deliveries/s | vs bare (keep-alive) | note |")
  log("|---|---:|---:|---|")
  log(`| bare node:https client, keep-alive | ${f(bareKeepAlive.perSecond)} | 100% | ${bareKeepAlive.failures} failures |`)
  log(`| bare node:https client, a new TLS connection per request | ${f(bareFresh.perSecond)} | ${f((bareFresh.perSecond / bareKeepAlive.perSecond) * 100)}% | ${bareFresh.failures} failures |`)
  log(
    `| dispatcher (claim, seal, URL check, POST, record) | ${f(dispatcherRate)} | ${f((dispatcherRate / bareKeepAlive.perSecond) * 100)}% | ` +
      `${delivered}/${events} delivered, ${attempts.n} attempts recorded (${attempts.ok} delivered with status 200), ${rounds} rounds; receiver saw ${receiver.count() - before} on ${receiver.connections() - connectionsBefore} new TLS connections |`
  )
  if (statementRows.length > 0) {
    log("\n| statement (PostgreSQL, during dispatch) | calls | rows | exec ms | plan ms | µs per delivery | blocks per call |\n|---|---:|---:|---:|---:|---:|---:|")
    for (const r of statementRows) {
      log(`| \`${r.query}…\` | ${r.calls} | ${r.rows} | ${f(r.exec_ms)} | ${f(r.plan_ms)} | ${f(((r.exec_ms + r.plan_ms) * 1000) / delivered)} | ${f(Number(r.blocks) / Number(r.calls))} |`)
    }
  }
  if (timing !== undefined) {
    log("\n| call | count | total ms | mean ms |\n|---|---:|---:|---:|")
    for (const [k, t] of timing.entries()) log(`| ${k} | ${t.n} | ${f(t.ms)} | ${f(t.ms / t.n, 2)} |`)
  }
  log(
    `\nCPU per delivery: the benchmark process (receiver included) ${f(dispatchCpuMicros)} µs (${f(dispatchCpu.system / delivered)} in the kernel) with the dispatcher, ` +
      `${f(bareKeepAlive.cpuMicros)} µs (${f(bareKeepAlive.systemMicros)} in the kernel) with the bare keep-alive client; PostgreSQL ${Option.match(databaseCpuMicros, { onNone: () => "(not readable)", onSome: (us) => `${f(us)} µs` })} with the dispatcher`
  )
  log(`event loop of the benchmark process (dispatcher and receiver) during dispatch: ${f(loopBusy * 100)}% busy, delay p50 ${f(loopDelay.percentile(50) / 1e6, 1)} ms, p99 ${f(loopDelay.percentile(99) / 1e6, 1)} ms`)
  log(`dispatcher layer built in ${f(buildMs)} ms before the clock started`)
  log(`peak RSS of the benchmark process during dispatch: ${f(peakRss / 2 ** 20)} MiB`)
  if (delivered !== events || Number(attempts.ok) !== events) process.exitCode = 1
}

main()
  .catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => process.exit())
