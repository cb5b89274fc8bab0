/**
 * The operator console's pages at a million wallets on PostgreSQL. `npm run bench:console`
 * (BENCH_WALLETS=1000000 by default; BENCH_ROUNDS requests per page, 30 by default).
 *
 * Each page is requested in turn over HTTP with a bearer token from the console served over the
 * PostgreSQL adapters, and beside it the reference: the same reads (`PgConsoleQueries`, the same
 * SQL statements) called directly, with no HTTP, no authentication and no HTML. The gap is what
 * the console itself costs. Goal (issue 34): each page under 200 ms.
 */
import { OperatorAccess, router } from "@collector/console"
import { Engine, Notifications, Operators, Settings, Tenants } from "@collector/core"
import { DatabaseAtUrl, PgStorage } from "@collector/postgres"
import { DnsWebhookTargets } from "@collector/outbound"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"
import { benchDatabase } from "./support/BenchDatabase.js"
import { loadWallets, rebuildScopeTotals } from "./support/WalletLoad.js"

const total = Number(process.env.BENCH_WALLETS ?? 1_000_000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 30)
const tenants = 10
const goalMs = 200
const log = (line: string) => console.log(line)

const percentile = (values: ReadonlyArray<number>, p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!

const timed = async (run: () => Promise<unknown>) => {
  const times: Array<number> = []
  await run() // warm-up
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) }
}

/** Deposits of the last two days with their events (some failed, some retrying), and sweeps in every unfinished state. */
const seedActivity = async (client: pg.Client) => {
  await client.query(`
    INSERT INTO deposits (tenant_id, network, wallet_id, txid, log_index, status, revision, event_id, custom_id, address, source, contract,
                          amount, block_number, block_hash, block_time, confirmation_type, confirmations, created_at, updated_at)
    SELECT tenant_id, network, id, md5(id::text) || md5((id + 1)::text), 0, 'confirmed', 1, nextval('task_event_id_seq'), custom_id, address,
           'TSourceAddress', 'TUsdtContract', 1000000 + id % 1000, 1000000 + id, 'h', now() - (id % 172800) * interval '1 second', 'block_1', 1,
           now() - (id % 172800) * interval '1 second', now()
    FROM wallets WHERE id % 10 = 0`)
  await client.query(`
    INSERT INTO events (id, tenant_id, network, event_type, deposit_id, revision, payload, status, attempts, next_attempt, deadline_at, last_error, created_at)
    SELECT event_id, tenant_id, network, 'deposit.confirmed', id, 1, '{}',
           CASE WHEN id % 50 = 0 THEN 'failed' WHEN id % 33 = 0 THEN 'pending' ELSE 'delivered' END,
           CASE WHEN id % 50 = 0 THEN 20 WHEN id % 33 = 0 THEN 3 ELSE 1 END,
           CASE WHEN id % 33 = 0 AND id % 50 <> 0 THEN now() + interval '1 minute' END,
           created_at + interval '24 hours', CASE WHEN id % 50 = 0 THEN 'HTTP 500' ELSE '' END, created_at
    FROM deposits`)
  await client.query(`
    INSERT INTO sweep_tasks (tenant_id, network, wallet_id, address, mode, destination, origin, status, reason, created_at, updated_at, next_step_at, prepare_by)
    SELECT tenant_id, network, id, address, 'all', 'TCollection', 'automation',
           (ARRAY['pending', 'ready', 'failed', 'cancelled', 'cancelled'])[1 + id % 5], CASE WHEN id % 5 >= 2 THEN 'insufficient energy' ELSE '' END,
           now() - (id % 172800) * interval '1 second', now() - (id % 172800) * interval '1 second', now(), now() + interval '1 hour'
    FROM wallets WHERE id % 50 = 1`)
  await client.query("VACUUM ANALYZE")
  await client.query("CHECKPOINT")
}

const program = Effect.gen(function*() {
  const url = yield* benchDatabase("bench-console")
  const keyring = MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })
  const Storage = Layer.mergeAll(PgStorage, NodeEntropy.layer, AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer)), DnsWebhookTargets.layer({ allowPrivateTargets: false })).pipe(
    Layer.provideMerge(Layer.merge(keyring, DatabaseAtUrl(Redacted.make(url), 10)))
  )
  const Services = Layer.mergeAll(OperatorAccess.layer, Notifications.Notifications.layer, Settings.SettingsService.layer, Engine.Readiness.storage(), Tenants.TenantAdmin.layer).pipe(Layer.provideMerge(Storage))
  const Served = HttpServer.serve(router({ secureCookie: false })).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(Services)
  )
  yield* Effect.gen(function*() {
    const admin = yield* Tenants.TenantAdmin
    const created = yield* Effect.forEach(Array.from({ length: tenants }, (_, i) => `bench-${i}`), (name) => admin.create(name, ["nile"]))
    const { token } = yield* (yield* OperatorAccess).createToken()
    const queries = yield* Operators.ConsoleQueries
    const readiness = yield* Engine.Readiness
    const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
    const base = `http://127.0.0.1:${address.port}`
    const { someAddress, someTxid } = yield* Effect.promise(async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      const started = performance.now()
      await loadWallets(client, created.map((c) => c.tenant.id), Math.floor(total / tenants), (done) => {
        if (done % 200_000 === 0) log(`loaded ${done} wallets`)
      })
      await rebuildScopeTotals(client)
      await seedActivity(client)
      const counts = (await client.query("SELECT (SELECT count(*) FROM wallets) AS w, (SELECT count(*) FROM deposits) AS d, (SELECT count(*) FROM sweep_tasks) AS s")).rows[0]
      log(`loaded ${counts.w} wallets, ${counts.d} deposits with their events, ${counts.s} sweeps in ${((performance.now() - started) / 1000).toFixed(0)} s`)
      const row = (await client.query("SELECT address, txid FROM deposits ORDER BY id DESC LIMIT 1")).rows[0]
      await client.end()
      return { someAddress: row.address as string, someTxid: row.txid as string }
    })
    const now = Date.now()
    const since = { hour: new Date(now - 3_600_000), day: new Date(now - 86_400_000) }
    const pages: ReadonlyArray<readonly [string, string, Effect.Effect<unknown, unknown>]> = [
      ["overview", "/console", Effect.zip(readiness.check, queries.networkActivity("nile", since, 10_000))],
      ["tenants", "/console/tenants", queries.tenants(since.day, 200)],
      ["deliveries", "/console/deliveries", queries.troubledDeliveries(200)],
      ["sweeps", "/console/sweeps", queries.sweepsNotSucceeded(200)],
      ["search by address", `/console/search?q=${someAddress}`, queries.findWallets(someAddress)],
      ["search by txid", `/console/search?q=${someTxid}`, Effect.zip(queries.findWallets(someTxid), queries.findTransaction(someTxid))]
    ]
    log(`\n| page | console p50 | console p95 | reference p50 | reference p95 | under ${goalMs} ms |`)
    log("|---|---|---|---|---|---|")
    for (const [name, path, reads] of pages) {
      const page = yield* Effect.promise(() =>
        timed(async () => {
          const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })
          if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`)
          await response.text()
        })
      )
      const reference = yield* Effect.promise(() => timed(() => Effect.runPromise(reads)))
      log(`| ${name} | ${page.p50.toFixed(1)} ms | ${page.p95.toFixed(1)} ms | ${reference.p50.toFixed(1)} ms | ${reference.p95.toFixed(1)} ms | ${page.p95 < goalMs ? "yes" : "NO"} |`)
    }
  }).pipe(Effect.provide(Served))
})

Effect.runPromise(Effect.scoped(program)).then(() => process.exit(0), (e) => (console.error(e), process.exit(1)))
