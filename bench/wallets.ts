/**
 * Wallet creation rate beside bare key generation, and the signed wallet list at a million
 * wallets beside a bare Node HTTP server, in one run. `npm run bench:wallets`
 * (BENCH_WALLETS=1000000 by default, e.g. BENCH_WALLETS=100000 for a quick run; BENCH_SECONDS
 * per load row). Full speed is autocannon's closed loop; half that rate is an open loop at a
 * constant rate (latency from each request's due time).
 *
 * Each list row is also measured on the fair reference (issue 21), bench/support/ReferenceApiServer.ts:
 * node:http and a pg Pool doing the same work per request (signature, token, the same SQL
 * statement text, the same envelope) over the same database, at full speed and at the same
 * constant rate as ours; printed as `RATIO api-list-default|api-list-filter <ours>/<reference> = <percent>%`
 * and `LATENCY api-list-half-load p99 <ms> ms` (ours, default page, at half our maximum rate).
 * BENCH_CPU_PROF=1 profiles our API and the reference and prints, for each list row at full
 * speed, where each server's CPU went per request, by layer (`bench/support/ProfileBreakdown.ts`).
 * BENCH_PAUSES=1 has both servers log their garbage-collection pauses and busy event loops
 * (`bench/support/PauseLog.mjs`) and prints, for each half-load row, its requests over 25 ms by
 * what their server was doing meanwhile, ours beside the reference's (`bench/support/TailBreakdown.ts`).
 */
import { Secrets, Tenants, Wallets } from "@collector/core"
import { DatabaseAtUrl, PgAccessTokenRepository, PgIdempotencyStore, PgTenantRepository, PgWalletRepository } from "@collector/postgres"
import { LocalWalletKeys, TronAddress } from "@collector/tron"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { openSync, rmSync } from "node:fs"
import { cpus, totalmem } from "node:os"
import { resolve } from "node:path"
import pg from "pg"
import { freePort, repositoryRoot, startTs, stopAll, waitForHttp } from "../test-support/Processes.js"
import { constantRateInChild } from "./support/ConstantRate.js"
import { enablePauseLog, pausesOf, printTails, type Tail, tailOf } from "./support/TailBreakdown.js"
import { load, type LoadResult } from "./support/Load.js"
import { ratioLine, sameResponse, startReferenceApi } from "./support/FairReference.js"
import { childProfileFlags, profileDirectory } from "./support/CpuProfile.js"
import { printLayerBreakdown } from "./support/ProfileBreakdown.js"
import { fetchToken, signedHeaders } from "./support/Signing.js"
import { benchDatabase } from "./support/BenchDatabase.js"
import { checkSameStatements, walletCreateStatements } from "./support/CapturedStatements.js"
import { createWallet, drawIdStatement, insertStatement, insertValues } from "./support/ReferenceWalletCreate.js"
import { loadWallets, rebuildScopeTotals } from "./support/WalletLoad.js"
import { startTimeoutMs } from "./support/StartTimeout.js"

const total = Number(process.env.BENCH_WALLETS ?? 1_000_000)
const tenants = 10
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = 32
const masterKey = randomBytes(32)
const master = MasterKey.unsafeMake(masterKey)
const profiling = process.env.BENCH_CPU_PROF === "1"

const log = (line: string) => console.log(line)
/** Issue 3's and 21's goal for the list's p99 at half the maximum rate. */
const listGoalMs = 25

const database = benchDatabase("bench-wallets")

const keygenRate = (n: number) => {
  const started = performance.now()
  for (let i = 0; i < n; i++) TronAddress.fromSecretKey(secp256k1.utils.randomSecretKey())
  return n / ((performance.now() - started) / 1000)
}

/** Wallets created in each timed creation phase (ours and the reference's), after an untimed warm-up, so many at once. */
const creations = Number(process.env.BENCH_CREATIONS ?? 5000)
const creationWarmUp = 500
const creationConcurrency = 16

/**
 * The reference's creation rate (bench/support/ReferenceWalletCreate.ts) on a pool of our size,
 * after checking that it sends our repository's statements.
 */
const referenceCreation = async (url: string, tenantId: string) => {
  const scope = { tenantId, network: "nile" }
  const blob = new Uint8Array(61)
  const compared = checkSameStatements(
    "wallet create",
    await walletCreateStatements(scope, "77", "TAddress", "c-1", master.id, blob, Tenants.defaultTenantLimits.maxWalletsPerTenant),
    [{ text: drawIdStatement, values: [] }, { text: insertStatement, values: insertValues(scope, "77", "TAddress", "c-1", master.id, blob, Tenants.defaultTenantLimits.maxWalletsPerTenant) }]
  )
  log(`wallet-create reference: the same statement text and parameters as our repository (${compared} statements compared)`)
  const pool = new pg.Pool({ connectionString: url, max: 20, application_name: "bench-reference" })
  const key = { id: master.id, bytes: masterKey }
  const create = (prefix: string, count: number) => {
    let next = 0
    return Promise.all(Array.from({ length: creationConcurrency }, async () => {
      while (next < count) await createWallet(pool, key, scope, `${prefix}-${next++}`, Tenants.defaultTenantLimits.maxWalletsPerTenant)
    }))
  }
  await create("reference-warm", creationWarmUp)
  const started = performance.now()
  await create("reference", creations)
  const perSecond = creations / ((performance.now() - started) / 1000)
  await pool.end()
  return perSecond
}

/** A few of the reference's timed wallets, with their sealed keys. */
const referenceWalletsOpen = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const rows = (await client.query<{ address: string; key_id: string; sealed_key: Buffer }>(
    `SELECT w.address, k.key_id, k.sealed_key FROM wallets w JOIN wallet_keys k ON k.wallet_id = w.id WHERE w.custom_id IN ('reference-0', 'reference-1', 'reference-${creations - 1}')`
  )).rows
  await client.end()
  if (rows.length !== 3) throw new Error(`expected 3 reference wallets, found ${rows.length}`)
  return rows
}

const explain = async (client: pg.Client, label: string, text: string, params: Array<unknown>) => {
  const rows = (await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${text}`, params)).rows.map((r) => r["QUERY PLAN"] as string)
  log(`\nplan: ${label}`)
  for (const line of rows) log(`    ${line}`)
}

const listTarget = (query: string) => `/open/v1/wallets${query === "" ? "" : `?${query}`}`

const program = Effect.gen(function*() {
  const url = yield* database
  const keyring = MasterKeyring.layer({ current: master })
  const Repos = Layer.mergeAll(PgTenantRepository.layer, PgAccessTokenRepository.layer, PgIdempotencyStore.layer, PgWalletRepository.layer)
  const Live = Layer.mergeAll(Tenants.TenantAdmin.layer, Wallets.Wallets.layer.pipe(Layer.provide(LocalWalletKeys.layer))).pipe(
    Layer.provideMerge(Repos),
    Layer.provide([NodeEntropy.layer, AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer))]),
    Layer.provide([keyring, DatabaseAtUrl(Redacted.make(url), 20)])
  )
  const { apps, keysPerSecond, walletsPerSecond } = yield* Effect.gen(function*() {
    const admin = yield* Tenants.TenantAdmin
    const wallets = yield* Wallets.Wallets
    const created = yield* Effect.forEach(Array.from({ length: tenants }, (_, i) => `bench-${i}`), (name) => admin.create(name, ["nile"]))
    const apps = created.map((c) => ({ tenantId: c.tenant.id, appId: c.credentials[0]!.appId, secret: Redacted.value(c.credentials[0]!.appSecret) }))
    // Creation: bare key generation, then the whole path (key, seal, insert) through the service,
    // after an untimed warm-up (the reference gets the same).
    const keysPerSecond = keygenRate(5000)
    const create = (prefix: string, count: number) =>
      Effect.forEach(
        Array.from({ length: count }, (_, i) => i),
        (i) => wallets.create({ tenantId: apps[0]!.tenantId, network: "nile" }, `${prefix}-${i}`),
        { concurrency: creationConcurrency, discard: true }
      )
    yield* create("warm", creationWarmUp)
    const startedCreate = performance.now()
    yield* create("created", creations)
    return { apps, keysPerSecond, walletsPerSecond: creations / ((performance.now() - startedCreate) / 1000) }
  }).pipe(Effect.provide(Live))
  log(`creation: ${walletsPerSecond.toFixed(0)} wallets/s (key, AES-GCM seal, insert; ${creationConcurrency} concurrent) beside ${keysPerSecond.toFixed(0)} bare key generations/s (${((walletsPerSecond / keysPerSecond) * 100).toFixed(0)}%)`)
  const referencePerSecond = yield* Effect.promise(() => referenceCreation(url, apps[0]!.tenantId))
  // The reference's wallets must be ones ours can use: its sealed key opens with our SecretBox at
  // its place and is the key of its address.
  yield* Effect.promise(() => referenceWalletsOpen(url)).pipe(
    Effect.flatMap((rows) =>
      Effect.forEach(rows, (row) =>
        Effect.flatMap(Secrets.SecretBox, (box) => box.open({ keyId: row.key_id, blob: new Uint8Array(row.sealed_key) }, Secrets.walletKeyContext(row.address))).pipe(
          Effect.filterOrDieMessage((key) => TronAddress.fromSecretKey(key) === row.address, `reference wallet ${row.address}: its sealed key is not the key of its address`),
          Effect.orDieWith((e) => new Error(`reference wallet ${row.address}: its sealed key does not open with our SecretBox: ${e.reason}`))
        ))),
    Effect.provide(AesGcmSecretBox.layer.pipe(Layer.provide([NodeEntropy.layer, keyring])))
  )
  log(`creation, fair reference (bench/support/ReferenceWalletCreate.ts: noble key, AES-GCM seal, our statements on raw pg; ${creationConcurrency} concurrent): ${referencePerSecond.toFixed(0)} wallets/s; its keys open with our SecretBox`)
  // Printed now: a failure later in the run must not lose it.
  log(ratioLine("wallet-create", walletsPerSecond, referencePerSecond))

  return yield* Effect.promise(async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    const loadStarted = performance.now()
    await loadWallets(client, apps.map((a) => a.tenantId), Math.floor(total / tenants), (done) => {
      if (done % 100_000 === 0) log(`loaded ${done} wallets`)
    })
    // The bulk load bypasses the repository, so the counters are rebuilt from the rows once.
    await rebuildScopeTotals(client)
    await client.query("VACUUM ANALYZE wallets")
    // The bulk load leaves hundreds of megabytes of dirty pages; flushed now, not during the measurement.
    await client.query("CHECKPOINT")
    log(`loaded ${total} wallets across ${tenants} tenants in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`)

    const scope = [apps[1]!.tenantId, "nile"]
    const sample = (await client.query("SELECT address FROM wallets WHERE tenant_id = $1 LIMIT 1 OFFSET 777", [scope[0]])).rows[0].address as string
    const fragment = sample.slice(5, 9)
    await explain(client, "default page (created_at desc)", `SELECT id FROM wallets w WHERE w.tenant_id = $1 AND w.network = $2 ORDER BY w.created_at DESC, w.id DESC LIMIT 20`, scope)
    await explain(client, "default page total (sharded counter)", `SELECT sum(n) FROM wallet_counts WHERE tenant_id = $1 AND network = $2`, scope)
    await explain(client, `address contains "${fragment}", sort balance_usdt desc`, `SELECT id FROM wallets w WHERE w.tenant_id = $1 AND w.network = $2 AND lower(w.address) LIKE $3 ORDER BY w.balance_usdt DESC NULLS LAST, w.id DESC LIMIT 20`, [...scope, `%${fragment.toLowerCase()}%`])
    await explain(client, "balance_usdt sort, no filter", `SELECT id FROM wallets w WHERE w.tenant_id = $1 AND w.network = $2 ORDER BY w.balance_usdt DESC NULLS LAST, w.id DESC LIMIT 20`, scope)
    await client.end()

    const env = { DATABASE_URL: url, MASTER_KEY: masterKey.toString("base64"), API_RATE_PER_SECOND: "100000000", API_RATE_BURST: "100000000", API_MAX_IN_FLIGHT: "100000" }
    const apiPort = await freePort()
    const barePort = await freePort()
    // BENCH_API_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the API under this load.
    // BENCH_API_OUTPUT=<file> keeps the API's standard output (its access log, and e.g. --trace-gc lines).
    const apiOutput = process.env.BENCH_API_OUTPUT === undefined ? "ignore" : openSync(process.env.BENCH_API_OUTPUT, "w")
    // BENCH_PAUSES=1: both servers log their collections and busy loops, and each half-load row's
    // slow requests are set beside them.
    const pauseLog = process.env.BENCH_PAUSES === "1" ? enablePauseLog() : undefined
    const serverFlags = [...childProfileFlags(profiling), ...(pauseLog?.nodeArgs ?? [])]
    const apiStartedAt = Date.now()
    const api = startTs("apps/api/src/main.ts", { ...env, PORT: String(apiPort) }, {
      nodeArgs: [...serverFlags, ...(process.env.BENCH_API_NODE_ARGS?.split(" ").filter((a) => a !== "") ?? [])],
      output: apiOutput
    })
    startTs("bench/support/BareServer.ts", { PORT: String(barePort) })
    // The framework floor: @effect/platform's Node HTTP server with one route and nothing else,
    // what any HttpApi operation can reach at most on this machine.
    const floorPort = await freePort()
    startTs("bench/support/MinimalEffectServer.ts", { PORT: String(floorPort) })
    const apiUrl = `http://127.0.0.1:${apiPort}`
    const bareUrl = `http://127.0.0.1:${barePort}`
    const floorUrl = `http://127.0.0.1:${floorPort}`
    await waitForHttp(`${apiUrl}/healthz`, startTimeoutMs)
    await waitForHttp(bareUrl, startTimeoutMs)
    await waitForHttp(floorUrl, startTimeoutMs)
    const app = { appId: apps[1]!.appId, secret: apps[1]!.secret }
    const token = await fetchToken(apiUrl, app)
    // The fair reference over the same database, with a token of its own.
    const reference = await startReferenceApi(url, app, serverFlags)
    const referenceUrl = reference.url
    const referenceToken = await fetchToken(referenceUrl, app)
    const rows: Array<LoadResult & { readonly atRate?: number; readonly p999?: number; readonly max?: number }> = []
    const listRequest = (query: string, bearer: string) => ({ method: "GET", path: listTarget(query), headers: signedHeaders(app, "GET", listTarget(query), bearer) }) as const
    const list = (name: string, query: string) => load(name, apiUrl, listRequest(query, token), seconds, connections)
    const referenceList = (name: string, query: string) => load(name, referenceUrl, listRequest(query, referenceToken), seconds, connections)
    const queries = [
      ["GET /open/v1/wallets (default page)", "", "api-list-default"],
      [`GET /open/v1/wallets?address=${fragment}&sort=balance_usdt`, `address=${fragment}&sort=balance_usdt`, "api-list-filter"]
    ] as const
    for (const [name, query] of queries) await sameResponse(name, apiUrl, listRequest(query, token), referenceUrl, listRequest(query, referenceToken), true)
    await load("warm-up", bareUrl, { method: "GET", path: "/" }, 2, connections)
    await list("warm-up", "")
    await referenceList("warm-up", "")
    rows.push(await load("bare node http (reference)", bareUrl, { method: "GET", path: "/" }, seconds, connections))
    await load("warm-up", floorUrl, { method: "GET", path: "/" }, 2, connections)
    rows.push(await load("one-route Effect HTTP server (framework floor)", floorUrl, { method: "GET", path: "/" }, seconds, connections))
    const summary: Array<string> = []
    /** Each full-speed row's window, in milliseconds since its server started (its CPU profile's clock). */
    const profiled: Array<{ name: string; ours: [number, number]; reference: [number, number]; oursRequests: number; referenceRequests: number }> = []
    const since = (startedAt: number, run: () => Promise<LoadResult>) => async () => {
      const from = Date.now() - startedAt
      const result = await run()
      return { result, window: [from, Date.now() - startedAt] as [number, number] }
    }
    for (const [name, query, key] of queries) {
      const ours = await since(apiStartedAt, () => list(`${name}, full speed`, query))()
      const max = ours.result
      rows.push(max)
      const theirs = await since(reference.startedAt, () => referenceList(`${name}, fair reference, full speed`, query))()
      const referenceMax = theirs.result
      rows.push(referenceMax)
      profiled.push({ name, ours: ours.window, reference: theirs.window, oursRequests: max.requests ?? 0, referenceRequests: referenceMax.requests ?? 0 })
      summary.push(ratioLine(key, max.rps, referenceMax.rps))
      // Half our rate, held constant (requests spread evenly, latency from each one's due time),
      // on ours and then on the reference at the very same rate.
      const half = Math.max(1, Math.floor(max.rps / 2))
      const tails: Array<readonly [string, Tail]> = []
      for (const [server, baseUrl, bearer, pid] of [["", apiUrl, token, api.pid!], ["fair reference, ", referenceUrl, referenceToken, reference.pid]] as const) {
        const paced = await constantRateInChild(`${name}, ${server}constant ${half} req/s (half ours)`, baseUrl, listRequest(query, bearer), seconds, half, connections)
        if (paced.errors > 0) throw new Error(`${paced.name}: ${paced.errors} requests got no answer, the first: ${paced.firstError}`)
        rows.push({ ...paced, atRate: half })
        if (pauseLog !== undefined) {
          // The server writes its log every 500 ms.
          await new Promise((r) => setTimeout(r, 1000))
          tails.push([server === "" ? "ours" : "fair reference", tailOf({ ...paced, requests: Math.floor(seconds * half) }, pausesOf(pauseLog.directory, pid), listGoalMs)])
        }
        log(`${paced.name}: p99 ${paced.p99} ms; the load generator's event loop was held up at most ${paced.generatorStall} ms`)
        if (process.env.BENCH_VERBOSE === "1") log(`  slow requests (due at, ms): ${paced.slow.map(([at, ms]) => `${new Date(at).toISOString()} ${ms}`).join(", ")}`)
        const latencyKey = key === "api-list-default" ? "api-list-half-load" : "api-list-filter-half-load"
        summary.push(`LATENCY ${latencyKey}${server === "" ? "" : " reference"} p99 ${paced.p99} ms`)
      }
      if (tails.length > 0) printTails(log, `${name} at ${half} req/s`, listGoalMs, tails)
    }
    const bare = rows[0]!.rps
    log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; ${total} wallets, ${tenants} tenants; ${connections} connections, ${seconds} s per row`)
    log("full speed: autocannon, closed loop; half: an open loop at a constant rate in a process of its own (bench/support/ConstantRate.ts), latency counted from each request's due time")
    log("| operation | req/s | p50 ms | p99 ms | p99.9 ms | max ms | non-2xx | vs bare |")
    log("|---|---:|---:|---:|---:|---:|---:|---:|")
    const opt = (x: number | undefined) => (x === undefined ? "" : String(x))
    for (const r of rows) {
      log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${opt(r.p999)} | ${opt(r.max)} | ${r.non2xx} | ${((r.rps / bare) * 100).toFixed(1)}% |`)
    }
    log("")
    for (const line of summary) log(line)
    stopAll()
    await new Promise((r) => setTimeout(r, 3000))
    if (profiling) {
      for (const row of profiled) {
        printLayerBreakdown(
          profileDirectory,
          `${row.name}, full speed`,
          { pid: api.pid!, windows: [row.ours], requests: row.oursRequests },
          { pid: reference.pid, windows: [row.reference], requests: row.referenceRequests }
        )
      }
    }
  })
})

Effect.runPromise(Effect.scoped(program)).then(
  () => {
    rmSync(resolve(repositoryRoot, ".data", `bench-wallets-${process.pid}`), { recursive: true, force: true })
    process.exit(0)
  },
  (e) => {
    console.error(e)
    process.exit(1)
  }
)
