/**
 * Requests per second and p50/p99 latency of signed API operations, beside a bare Node HTTP
 * server measured in the same run on the same machine. Run with `npm run bench`.
 *
 * Each operation is also measured on the fair reference (issue 21), bench/support/ReferenceApiServer.ts:
 * node:http and a pg Pool doing the same work per request (signature, token, the same SQL
 * statement text, the same envelope) over the same database, and printed as
 * `RATIO api-token|api-wallet-detail <ours>/<reference> = <percent>%`.
 * Beside each operation's rate: the CPU per request of the server process and of PostgreSQL (the
 * API's embedded one, which the reference shares). BENCH_CPU_PROF=1 profiles both servers over the
 * whole run and prints where their CPU went per request, by layer (`bench/support/ProfileBreakdown.ts`).
 * BENCH_SECONDS per row (10), BENCH_CONNECTIONS (32); DATABASE_URL, else the API's embedded PostgreSQL.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { readFileSync, rmSync } from "node:fs"
import { cpus, totalmem } from "node:os"
import { join, resolve } from "node:path"
import { ratioLine, sameResponse, startReferenceApi } from "./support/FairReference.js"
import { load, type LoadRequest, type LoadResult } from "./support/Load.js"
import { childProfileFlags, profileDirectory } from "./support/CpuProfile.js"
import { processTreeCpu } from "./support/ProcessCpu.js"
import { printLayerBreakdown } from "./support/ProfileBreakdown.js"
import { fetchToken, signedHeaders } from "./support/Signing.js"
import { freePort, runTs, startTs, stopAll, waitForHttp } from "../test-support/Processes.js"
import { startTimeoutMs } from "./support/StartTimeout.js"

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const root = resolve(import.meta.dirname, "..")
const profiling = process.env.BENCH_CPU_PROF === "1"


const main = async () => {
  const dataDir = resolve(root, ".data", `bench-${process.pid}`)
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    MASTER_KEY: randomBytes(32).toString("base64"),
    EMBEDDED_PG_PORT: String(await freePort()),
    // Throughput is measured here, not the per-app rate limit (an operator setting).
    API_RATE_PER_SECOND: "100000000",
    API_RATE_BURST: "100000000",
    API_MAX_IN_FLIGHT: "100000"
  }
  const barePort = await freePort()
  const floorPort = await freePort()
  const apiPort = await freePort()
  startTs("bench/support/BareServer.ts", { PORT: String(barePort) })
  startTs("bench/support/MinimalEffectServer.ts", { PORT: String(floorPort) })
  const apiStartedAt = Date.now()
  const api = startTs("apps/api/src/main.ts", { ...env, PORT: String(apiPort) }, { nodeArgs: childProfileFlags(profiling) })
  const bareUrl = `http://127.0.0.1:${barePort}`
  const floorUrl = `http://127.0.0.1:${floorPort}`
  const apiUrl = `http://127.0.0.1:${apiPort}`
  await waitForHttp(bareUrl, startTimeoutMs)
  await waitForHttp(floorUrl, startTimeoutMs)
  await waitForHttp(`${apiUrl}/healthz`, startTimeoutMs)

  const created = JSON.parse((await runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "bench", "--networks", "nile", "--json"])).stdout)
  const app = { appId: created.apps[0].app_id as string, secret: created.apps[0].app_secret as string }
  const tokenPath = "/open/v1/auth/token"
  const tokenRes = await fetch(`${apiUrl}${tokenPath}`, { method: "POST", headers: signedHeaders(app, "POST", tokenPath, "") })
  const token = (await tokenRes.json()).data.access_token as string
  const walletBody = JSON.stringify({ custom_id: "bench-wallet", request_id: randomUUID() })
  const wallet = await (await fetch(`${apiUrl}/open/v1/wallets`, { method: "POST", headers: signedHeaders(app, "POST", "/open/v1/wallets", token, walletBody), body: walletBody })).json()
  const walletPath = `/open/v1/wallets/${wallet.data.id}`

  // The fair reference, over the same database, with a token of its own.
  // The embedded server's superuser password is the one the service generated beside its cluster.
  const embeddedPassword = () => encodeURIComponent(readFileSync(join(dataDir, "pg.password"), "utf8").trim())
  const databaseUrl = process.env.DATABASE_URL ?? `postgres://postgres:${embeddedPassword()}@127.0.0.1:${env.EMBEDDED_PG_PORT}/postgres`
  const reference = await startReferenceApi(databaseUrl, app, childProfileFlags(profiling))
  const referenceUrl = reference.url
  const referenceToken = await fetchToken(referenceUrl, app)
  const tokenRequest = { method: "POST", path: tokenPath, headers: signedHeaders(app, "POST", tokenPath, "") } as const
  const detail = { method: "GET", path: walletPath, headers: signedHeaders(app, "GET", walletPath, token) } as const
  const referenceDetail = { method: "GET", path: walletPath, headers: signedHeaders(app, "GET", walletPath, referenceToken) } as const
  await sameResponse("token issue", apiUrl, tokenRequest, referenceUrl, tokenRequest, false)
  await sameResponse("wallet detail", apiUrl, detail, referenceUrl, referenceDetail, true)

  // Warm up both servers (JIT, connection pools) before measuring.
  await load("warm-up", bareUrl, { method: "GET", path: "/" }, 2, connections)
  await load("warm-up", floorUrl, { method: "GET", path: "/" }, 2, connections)
  await load("warm-up", apiUrl, detail, 2, connections)
  await load("warm-up", referenceUrl, referenceDetail, 2, connections)

  // A signature stays valid for 300 s, so one signed request can be replayed for the whole run.
  const results: Array<LoadResult> = []
  /** CPU microseconds per request of the server process and of PostgreSQL (below our API's process) over one row. */
  const costs = new Map<string, { server: number; database: number }>()
  /** Each server's measured rows, in milliseconds since its start (its CPU profile's clock). */
  const windows = { ours: [] as Array<[number, number]>, reference: [] as Array<[number, number]> }
  const cpuOf = (serverPid: number) => ({ server: processTreeCpu(serverPid).own, database: processTreeCpu(api.pid!).descendants })
  // What each process spends per second with no request (our API's credential refresh and
  // metrics, PostgreSQL's own background work), so that it is not charged to the requests.
  const idleMillis = 3000
  const idleBefore = { ours: cpuOf(api.pid!), reference: cpuOf(reference.pid) }
  await new Promise((r) => setTimeout(r, idleMillis))
  const idlePerSecond = (before: ReturnType<typeof cpuOf>, after: ReturnType<typeof cpuOf>) => ({
    server: (after.server - before.server) / (idleMillis / 1000),
    database: (after.database - before.database) / (idleMillis / 1000)
  })
  const idle = { ours: idlePerSecond(idleBefore.ours, cpuOf(api.pid!)), reference: idlePerSecond(idleBefore.reference, cpuOf(reference.pid)) }
  const measured = async (name: string, url: string, request: LoadRequest, serverPid: number) => {
    const before = cpuOf(serverPid)
    const idleRate = serverPid === api.pid ? idle.ours : idle.reference
    const [rows, startedAt] = serverPid === api.pid ? [windows.ours, apiStartedAt] : [windows.reference, reference.startedAt]
    const from = Date.now() - startedAt
    const result = await load(name, url, request, seconds, connections)
    rows.push([from, Date.now() - startedAt])
    const served = result.requests ?? 1
    const after = cpuOf(serverPid)
    const elapsed = rows[rows.length - 1]![1] - from
    const busy = (key: "server" | "database") => after[key] - before[key] - (idleRate[key] * elapsed) / 1000
    costs.set(name, { server: (busy("server") * 1e6) / served, database: (busy("database") * 1e6) / served })
    return result
  }
  results.push(await load("bare node http (reference)", bareUrl, { method: "GET", path: "/" }, seconds, connections))
  results.push(await load("one-route Effect HTTP server (framework floor)", floorUrl, { method: "GET", path: "/" }, seconds, connections))
  results.push(await measured("POST /open/v1/auth/token (signed)", apiUrl, tokenRequest, api.pid!))
  results.push(await measured("POST /open/v1/auth/token, fair reference", referenceUrl, tokenRequest, reference.pid))
  results.push(await measured("GET /open/v1/wallets/{id} (signed + bearer)", apiUrl, detail, api.pid!))
  results.push(await measured("GET /open/v1/wallets/{id}, fair reference", referenceUrl, referenceDetail, reference.pid))

  const bare = results[0]!.rps
  console.log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`)
  console.log(`load: autocannon, ${connections} connections, ${seconds} s per row, database: ${process.env.DATABASE_URL ? "DATABASE_URL" : "embedded PostgreSQL"}\n`)
  console.log(`idle CPU per second (subtracted below): our API ${(idle.ours.server * 1000).toFixed(1)} ms, the reference ${(idle.reference.server * 1000).toFixed(1)} ms, PostgreSQL ${(idle.ours.database * 1000).toFixed(1)} ms\n`)
  console.log("| operation | req/s | p50 ms | p99 ms | non-2xx | vs bare | CPU µs per request: server / PostgreSQL |")
  console.log("|---|---:|---:|---:|---:|---:|---:|")
  for (const r of results) {
    const cost = costs.get(r.name)
    const cpu = cost === undefined ? "" : `${cost.server.toFixed(0)} / ${cost.database.toFixed(0)}`
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${((r.rps / bare) * 100).toFixed(1)}% | ${cpu} |`)
  }
  console.log("")
  console.log(ratioLine("api-token", results[2]!.rps, results[3]!.rps))
  console.log(ratioLine("api-wallet-detail", results[4]!.rps, results[5]!.rps))
  process.exitCode = results.some((r) => r.non2xx > 0) ? 1 : 0
  // Stop the servers (the API stops its embedded PostgreSQL) before removing its data.
  stopAll()
  await new Promise((r) => setTimeout(r, 3000))
  rmSync(dataDir, { recursive: true, force: true })
  if (profiling) {
    const served = (pick: (name: string) => boolean) => results.filter((r) => pick(r.name)).reduce((sum, r) => sum + (r.requests ?? 0), 0)
    printLayerBreakdown(
      profileDirectory,
      "token and wallet detail together",
      { pid: api.pid!, windows: windows.ours, requests: served((n) => n.includes("(signed")) },
      { pid: reference.pid, windows: windows.reference, requests: served((n) => n.endsWith("fair reference")) }
    )
  }
  process.exit()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
