/**
 * Webhook deliveries per second: the worker's dispatcher (claim, seal with a fresh nonce, check
 * the URL, HTTPS POST, record the attempt and the outcome) against a local HTTPS receiver that
 * acknowledges at once, beside a bare Node HTTPS client posting the same sealed bodies to the
 * same receiver, and beside the fair reference of issue 21 (bench/support/ReferenceDispatcher.ts:
 * the same work per delivery hand-written on raw `pg` and `node:https`, on an equal freshly seeded
 * batch, same receiver, same slots), in one run; it prints
 * `RATIO deliveries <ours>/<reference> = <percent>%` (deliveries per second).
 * Run with `npm run bench:deliveries`. Settings:
 * - BENCH_EVENTS (20000): the events of each batch (the dispatcher's and the reference's); a quick
 *   run: BENCH_EVENTS=2000;
 * - BENCH_IN_FLIGHT (64): the bare client's requests at once; BENCH_DISPATCHER_IN_FLIGHT (same):
 *   the dispatcher's and the reference's slots;
 * - BENCH_REFERENCE=0 skips the reference; BENCH_REFERENCE_FIRST=1 runs it before the dispatcher;
 * - each phase vacuums the delivery tables, seeds its batch and then analyzes them
 *   (BENCH_ANALYZE=before: analyzed with the vacuum, before seeding);
 * - BENCH_DISPATCHER_ONLY=1 skips the bare clients;
 * - BENCH_CPU_PROF=1 writes a CPU profile of each phase (this process: the deliverer and the
 *   receiver) under `.data/profiles` and prints the CPU per delivery by layer, ours beside the
 *   reference's (bench/support/ProfileBreakdown.ts);
 * - BENCH_INSTANT_TRANSPORT=1 replaces the dispatcher's POST by an immediate 200, to measure the
 *   rest (the reference is then skipped);
 * - BENCH_TIMING=1 times every ledger, URL check and transport call of the dispatcher;
 * - BENCH_PG_STATEMENTS=1 prints PostgreSQL's time per statement of each phase (embedded server only);
 * - BENCH_TABLE_STATS=1 prints the rows inserted and updated in the delivery tables by each phase,
 *   and how many updates stayed on their page without index writes.
 */
import { type Deposits, Notifications, Tenants, Webhook } from "@collector/core"

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
import { benchDatabase } from "./support/BenchDatabase.js"
import { phaseProfiler } from "./support/CpuProfile.js"
import { printPhaseBreakdown } from "./support/ProfileBreakdown.js"
import { makePortTiming } from "./support/PortTiming.js"
import { type ReferenceCounts, type ReferenceDispatcher, startReference } from "./support/ReferenceDispatcher.js"
import { childrenCpu } from "./support/ProcessCpu.js"
import { tlsDir } from "./support/WebhookReceiver.js"

const events = Number(process.env.BENCH_EVENTS ?? 20_000)
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 64)
const dispatcherInFlight = Number(process.env.BENCH_DISPATCHER_IN_FLIGHT ?? inFlight)
const tenants = 10
const instantTransport = process.env.BENCH_INSTANT_TRANSPORT === "1"
const log = (line: string) => console.log(line)
const profiling = process.env.BENCH_CPU_PROF === "1"

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

/** What one measured phase (our dispatcher or the reference) did with its batch. */
interface PhaseResult {
  readonly seconds: number
  readonly rate: number
  readonly delivered: number
  readonly attempts: number
  readonly attemptsOk: number
  readonly rounds: number
  readonly cpuMicros: number
  readonly systemMicros: number
  readonly databaseCpuMicros: Option.Option<number>
  readonly loopBusy: number
  readonly loopP50: number
  readonly loopP99: number
  readonly peakRss: number
  readonly receiverSaw: number
  readonly newConnections: number
  readonly buildMs: number
  readonly statements: ReadonlyArray<Record<string, any>>
  readonly tables: ReadonlyArray<{ relname: string; ins: number; upd: number; hot: number }>
  /** The phase's CPU profile (BENCH_CPU_PROF=1). */
  readonly profileFile: string | undefined
}

const main = async () => {
  const databaseScope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.extend(benchDatabase("bench-deliveries"), databaseScope))
  // Kept in the clear for the reference, which opens the apps' webhook keys itself.
  const masterKey = MasterKey.unsafeMake(randomBytes(32))
  const keyring = MasterKeyring.layer({ current: masterKey })
  const database = DatabaseAtUrl(Redacted.make(url), 20)
  const admin = Tenants.TenantAdmin.layer.pipe(
    Layer.provide(Layer.mergeAll(PgTenantRepository.layer, PgAccessTokenRepository.layer, PgIdempotencyStore.layer)),
    Layer.provide([NodeEntropy.layer, AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer))]),
    Layer.provide([keyring, database])
  )
  const receiver = await startReceiver()
  const client = new pg.Client({ connectionString: url })
  const adminRuntime = ManagedRuntime.make(admin)
  const created = await adminRuntime.runPromise(Effect.flatMap(Tenants.TenantAdmin, (a) =>
    Effect.forEach(Array.from({ length: tenants }, (_, i) => `bench-${i}`), (name) => a.create(name, ["nile"]))))
  await client.connect()

  // Every tenant's webhook points at the receiver.
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

  /**
   * A fresh batch of `events` due events, round robin over the tenants, for one phase. The
   * delivery tables are vacuumed and analyzed first, so that a phase run second does not walk
   * the dead index entries the first one left (each phase starts from the same kind of table).
   */
  const analyzeWhen = process.env.BENCH_ANALYZE ?? "after"
  const seed = async () => {
    await client.query(`VACUUM ${analyzeWhen === "before" ? "ANALYZE " : ""}events, delivery_rounds, delivery_attempts`)
    const insertStarted = performance.now()
    const outbox = ManagedRuntime.make(database)
    let first = ""
    let last = ""
    for (let start = 0; start < events; start += 5000) {
      const n = Math.min(5000, events - start)
      await outbox.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const ids = yield* sql<{ id: string }>`SELECT nextval('task_event_id_seq')::text AS id FROM generate_series(1, ${n})`
        if (first === "") first = ids[0]!.id
        last = ids[ids.length - 1]!.id
        const now = new Date()
        yield* insertEvents(sql, ids.map(({ id }, i) => ({
          id: id as Deposits.EventId, tenantId: created[(start + i) % tenants]!.tenant.id, network: "nile", eventType: "deposit.confirmed",
          deposit: null, payload: payload(start + i), dueAt: now, deadlineAt: Notifications.roundDeadline(now), createdAt: now
        })))
      }))
    }
    await outbox.dispose()
    if (analyzeWhen === "after") await client.query("ANALYZE events, delivery_rounds, delivery_attempts")
    log(`outbox: ${events} due events for ${tenants} tenants (inserted in ${((performance.now() - insertStarted) / 1000).toFixed(1)} s)`)
    return { first, last }
  }

  // The bare client, with sealed bodies of the same size (one per event) and the same concurrency.
  const key = randomBytes(32)
  const bodies = Array.from({ length: 1000 }, (_, i) =>
    JSON.stringify(sealEnvelope({ key, plaintext: payload(i), timestamp: new Date().toISOString(), nonce: randomBytes(12) })))
  const ca = readFileSync(join(tlsDir, "ca.pem"))
  // BENCH_DISPATCHER_ONLY=1 skips the bare clients (for profiling the dispatcher alone).
  const onlyDispatcher = process.env.BENCH_DISPATCHER_ONLY === "1"
  if (!onlyDispatcher) await bareClient(receiver.port, bodies, 2000, inFlight, new Agent({ keepAlive: true, ca }))
  const bareKeepAlive = onlyDispatcher
    ? { perSecond: 1, failures: 0, cpuMicros: 0, systemMicros: 0 }
    : await bareClient(receiver.port, bodies, events, inFlight, new Agent({ keepAlive: true, maxSockets: inFlight, ca }))
  const bareFresh = onlyDispatcher
    ? { perSecond: 1, failures: 0, cpuMicros: 0, systemMicros: 0 }
    : await bareClient(receiver.port, bodies, Math.min(events, 5000), inFlight, new Agent({ keepAlive: false, ca }))

  const statements = process.env.BENCH_PG_STATEMENTS === "1"
  if (statements) await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
  const tableStats = async () =>
    (await client.query(
      "SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname IN ('events', 'delivery_rounds', 'delivery_attempts') ORDER BY relname"
    )).rows.map((r) => ({ relname: String(r.relname), ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot) }))

  /**
   * One phase: a fresh batch, the deliverer built (`build`, before the clock), started, and
   * waited for until no event of the batch is open; then stopped and its records counted.
   */
  const measure = async (
    build: () => Promise<void>,
    start: () => { readonly stop: () => Promise<void> },
    close: () => Promise<void>,
    profileName: string | undefined
  ): Promise<PhaseResult> => {
    const batch = await seed()
    const buildStarted = performance.now()
    await build()
    const buildMs = performance.now() - buildStarted
    // Cumulative counters, read as differences once the seeding's connections have reported theirs.
    const tableCounters = process.env.BENCH_TABLE_STATS === "1"
    if (tableCounters) await new Promise((r) => setTimeout(r, 1500))
    const tablesBefore = tableCounters ? await tableStats() : []
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    const loopUse = performance.eventLoopUtilization()
    loopDelay.enable()
    const before = receiver.count()
    const connectionsBefore = receiver.connections()
    // BENCH_CPU_PROF=1: a CPU profile of this process (deliverer and receiver) during the phase.
    const profiler = phaseProfiler(profileName !== undefined, profileName ?? "")
    await profiler.start()
    if (statements) await client.query("SELECT pg_stat_statements_reset()")
    const started = performance.now()
    const cpuStart = process.cpuUsage()
    const databaseCpuStart = childrenCpu(undefined)
    const running = start()
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
    const cpu = process.cpuUsage(cpuStart)
    const databaseCpuEnd = childrenCpu(undefined)
    const receiverSaw = receiver.count() - before
    const newConnections = receiver.connections() - connectionsBefore
    const profileFile = await profiler.stop()
    if (profileFile !== undefined) log(`CPU profile of the phase: ${profileFile}`)
    loopDelay.disable()
    const loopBusy = performance.eventLoopUtilization(loopUse).utilization
    const statementRows = statements
      ? (await client.query(
        `SELECT calls, total_exec_time AS exec_ms, total_plan_time AS plan_ms, rows, shared_blks_hit + shared_blks_read AS blocks,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS query
         FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 8`
      )).rows
      : []
    await running.stop()
    // Open events run out when every event has ended, delivered or not: count the delivered ones.
    const range = [batch.first, batch.last]
    const done = Number((await client.query("SELECT count(*) AS n FROM events WHERE status = 'delivered' AND id BETWEEN $1 AND $2", range)).rows[0].n)
    const attempts = (await client.query(
      "SELECT count(*) AS n, count(*) FILTER (WHERE outcome = 'delivered' AND ended_at IS NOT NULL AND http_status = 200) AS ok FROM delivery_attempts WHERE event_id BETWEEN $1 AND $2",
      range
    )).rows[0]
    const rounds = Number((await client.query(
      "SELECT count(*) AS n FROM delivery_rounds WHERE event_id BETWEEN $1 AND $2 AND outcome = 'delivered' AND ended_at IS NOT NULL", range
    )).rows[0].n)
    // A backend reports its table counters when it ends (or idle, at most once a second): read
    // them once the phase's connections are closed.
    await close()
    if (tableCounters) await new Promise((r) => setTimeout(r, 1500))
    const tablesAfter = tableCounters ? await tableStats() : []
    return {
      seconds,
      rate: done / seconds,
      delivered: done,
      attempts: Number(attempts.n),
      attemptsOk: Number(attempts.ok),
      rounds,
      cpuMicros: cpuMicros(cpu) / done,
      systemMicros: cpu.system / done,
      databaseCpuMicros: Option.map(Option.all([databaseCpuStart, databaseCpuEnd]), ([a, b]) => ((b.rest - a.rest) * 1e6) / done),
      loopBusy,
      loopP50: loopDelay.percentile(50) / 1e6,
      loopP99: loopDelay.percentile(99) / 1e6,
      peakRss,
      receiverSaw,
      newConnections,
      buildMs,
      statements: statementRows,
      tables: tablesAfter.map((t) => {
        const b = tablesBefore.find((x) => x.relname === t.relname)
        return { relname: t.relname, ins: t.ins - (b?.ins ?? 0), upd: t.upd - (b?.upd ?? 0), hot: t.hot - (b?.hot ?? 0) }
      }),
      profileFile
    }
  }

  // The dispatcher, as the worker runs it, until the outbox is delivered.
  const oursPhase = async (): Promise<PhaseResult> => {
    // Webhook URL checks and HTTPS delivery from the WEBHOOK_* settings set above.
    const OutboundLive = WebhookDelivery.layerConfig()
    // BENCH_TIMING=1 times every ledger, URL check and transport call (count, total and mean milliseconds).
    const timing = process.env.BENCH_TIMING === "1" ? makePortTiming() : undefined
    timing?.start()
    const ledger = timing === undefined ? PgDeliveryLedger.layer : timing.instrumented(Notifications.DeliveryLedger, "ledger").pipe(Layer.provide(PgDeliveryLedger.layer))
    // BENCH_INSTANT_TRANSPORT=1: every POST answers 200 at once without a request, which leaves the
    // dispatcher's own work per delivery (claim, key, URL check, seal, record) to be measured.
    const instant = instantTransport
      ? Layer.succeed(Notifications.DeliveryTransport, Notifications.DeliveryTransport.of({
        postEach: (requests, settled) =>
          Effect.sync(() => requests.forEach((_, i) => settled(i, Either.right({ status: 200, body: '{"code":0}', truncated: false, location: null }))))
      }))
      : undefined
    const outbound = instant !== undefined ? Layer.merge(OutboundLive, instant) : timing === undefined ? OutboundLive : Layer.merge(
      timing.instrumented(Notifications.DeliveryTransport, "transport"),
      timing.instrumented(Webhook.WebhookTargets, "targets")
    ).pipe(Layer.provide(OutboundLive))
    const runtime = ManagedRuntime.make(Notifications.Dispatcher.layer({ maxInFlight: dispatcherInFlight, perTenant: Math.ceil(dispatcherInFlight / 2) }).pipe(
      Layer.provide(Layer.mergeAll(ledger, PgComponentStatus.layer, Notifications.OutboxSignal.layer, AesGcmSecretBox.layer, WebhookEnvelopeSealer.layer, outbound).pipe(Layer.provide(NodeEntropy.layer))),
      Layer.provide([keyring, database])
    ))
    // The layer (CA list, TLS context, pool) is built before the clock starts, as a worker does at start.
    const result = await measure(
      async () => {
        await runtime.runtime()
      },
      () => {
        // As the worker runs it without OTEL_EXPORTER_OTLP_ENDPOINT: no tracer, so no spans
        // (launch.ts; Effect's default native tracer would build every span and drop it).
        const fiber = runtime.runFork(Effect.flatMap(Notifications.Dispatcher, (d) => d.run("nile", "bench")).pipe(Effect.withTracerEnabled(false)))
        return { stop: () => runtime.runPromise(Fiber.interrupt(fiber)).then(() => undefined) }
      },
      () => runtime.dispose(),
      profiling ? "deliveries-dispatcher" : undefined
    )
    if (timing !== undefined) {
      log("\n| call | count | total ms | mean ms |\n|---|---:|---:|---:|")
      for (const [k, t] of timing.entries()) log(`| ${k} | ${t.n} | ${t.ms.toFixed(0)} | ${(t.ms / t.n).toFixed(2)} |`)
    }
    return result
  }

  // The reference (bench/support/ReferenceDispatcher.ts): raw pg and node:https, same slots.
  const referencePhase = async (): Promise<{ result: PhaseResult; counts: ReferenceCounts }> => {
    // A pool of the dispatcher's size, one connection opened before the clock (the dispatcher's
    // layer opens its pool and runs the migrations check when it is built).
    const pool = new pg.Pool({ connectionString: url, max: 20, application_name: "bench-reference" })
    const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256, ca })
    let reference: ReferenceDispatcher | undefined
    const result = await measure(
      async () => {
        await pool.query("SELECT 1")
      },
      () => {
        reference = startReference({
          pool,
          network: "nile",
          holder: "bench-reference",
          inFlight: dispatcherInFlight,
          masterKey: { id: masterKey.id, bytes: Redacted.value(masterKey.bytes) },
          agent
        })
        return reference
      },
      async () => {
        agent.destroy()
        await pool.end()
      },
      profiling ? "deliveries-reference" : undefined
    )
    return { result, counts: reference!.counts }
  }

  // BENCH_REFERENCE=0 skips the reference; it is skipped with the instant transport too (nothing to compare).
  const withReference = process.env.BENCH_REFERENCE !== "0" && !instantTransport
  let ours: PhaseResult
  let reference: { result: PhaseResult; counts: ReferenceCounts } | undefined
  if (withReference && process.env.BENCH_REFERENCE_FIRST === "1") {
    reference = await referencePhase()
    ours = await oursPhase()
  } else {
    ours = await oursPhase()
    if (withReference) reference = await referencePhase()
  }

  await adminRuntime.dispose()
  await client.end()
  receiver.close()
  await Effect.runPromise(Scope.close(databaseScope, Exit.void))

  const f = (x: number, digits = 0) => x.toFixed(digits)
  const pgCpu = (r: PhaseResult) => Option.match(r.databaseCpuMicros, { onNone: () => "(not readable)", onSome: (us) => `${f(us)} µs` })
  const records = (r: PhaseResult) =>
    `${r.delivered}/${events} delivered, ${r.attempts} attempts recorded (${r.attemptsOk} delivered with status 200), ${r.rounds} rounds closed delivered; ` +
    `receiver saw ${r.receiverSaw} on ${r.newConnections} new TLS connections`
  log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`)
  log(`receiver: node:https on loopback, test certificate, acknowledges at once; ${inFlight} in flight (dispatcher and reference ${dispatcherInFlight}); payload ${payload(0).length} bytes`)
  if (reference !== undefined) log(`order: ${process.env.BENCH_REFERENCE_FIRST === "1" ? "reference first, then the dispatcher" : "dispatcher first, then the reference"}, each on its own fresh batch\n`)
  else log("")
  log("| measure | deliveries/s | vs bare (keep-alive) | note |")
  log("|---|---:|---:|---|")
  log(`| bare node:https client, keep-alive | ${f(bareKeepAlive.perSecond)} | 100% | ${bareKeepAlive.failures} failures |`)
  log(`| bare node:https client, a new TLS connection per request | ${f(bareFresh.perSecond)} | ${f((bareFresh.perSecond / bareKeepAlive.perSecond) * 100)}% | ${bareFresh.failures} failures |`)
  if (reference !== undefined) {
    const c = reference.counts
    log(
      `| reference (raw pg + node:https: claim, seal, POST, record) | ${f(reference.result.rate)} | ${f((reference.result.rate / bareKeepAlive.perSecond) * 100)}% | ` +
        `${records(reference.result)}; ${c.claims} claims (${f(c.claimed / Math.max(1, c.claims), 1)} events each), ${c.outcomeWrites} outcome writes (${f(c.outcomes / Math.max(1, c.outcomeWrites), 1)} each) |`
    )
  }
  log(`| dispatcher (claim, seal, URL check, POST, record) | ${f(ours.rate)} | ${f((ours.rate / bareKeepAlive.perSecond) * 100)}% | ${records(ours)} |`)
  const phases: Array<[string, PhaseResult]> = [["dispatcher", ours], ...(reference === undefined ? [] : [["reference", reference.result] as [string, PhaseResult]])]
  for (const [name, r] of phases) {
    if (r.statements.length > 0) {
      log(`\n| statement (PostgreSQL, ${name}) | calls | rows | exec ms | plan ms | µs per delivery | calls per 100 deliveries | blocks per call |\n|---|---:|---:|---:|---:|---:|---:|---:|`)
      for (const s of r.statements) {
        log(
          `| \`${s.query}…\` | ${s.calls} | ${s.rows} | ${f(s.exec_ms)} | ${f(s.plan_ms)} | ${f(((s.exec_ms + s.plan_ms) * 1000) / r.delivered)} | ` +
            `${f((Number(s.calls) * 100) / r.delivered, 1)} | ${f(Number(s.blocks) / Number(s.calls))} |`
        )
      }
    }
    if (process.env.BENCH_TABLE_STATS === "1") {
      for (const t of r.tables) log(`table ${t.relname} (${name}): ${t.ins} inserted, ${t.upd} updated (${t.hot} HOT)`)
    }
  }
  log("")
  for (const [name, r] of phases) {
    log(
      `${name}: CPU per delivery, the benchmark process (receiver included) ${f(r.cpuMicros)} µs (${f(r.systemMicros)} in the kernel), PostgreSQL ${pgCpu(r)}; ` +
        `event loop ${f(r.loopBusy * 100)}% busy, delay p50 ${f(r.loopP50, 1)} ms, p99 ${f(r.loopP99, 1)} ms; peak RSS ${f(r.peakRss / 2 ** 20)} MiB; ` +
        `${f(r.seconds, 1)} s; built in ${f(r.buildMs)} ms before the clock started`
    )
  }
  log(`bare keep-alive client: CPU per delivery ${f(bareKeepAlive.cpuMicros)} µs (${f(bareKeepAlive.systemMicros)} in the kernel)`)
  if (reference !== undefined) {
    if (ours.profileFile !== undefined && reference.result.profileFile !== undefined) {
      printPhaseBreakdown(
        "deliveries (each phase: the deliverer and the receiver in this process)",
        { file: ours.profileFile, requests: ours.delivered },
        { file: reference.result.profileFile, requests: reference.result.delivered }
      )
    }
    log(`\nRATIO deliveries ${f(ours.rate)}/${f(reference.result.rate)} = ${f((ours.rate / reference.result.rate) * 100)}%`)
  }
  const complete = (r: PhaseResult) => r.delivered === events && r.attemptsOk === events && r.rounds === events
  if (!complete(ours) || (reference !== undefined && !complete(reference.result))) process.exitCode = 1
}

main()
  .catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => process.exit())
