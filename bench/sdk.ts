/**
 * `npm run bench:sdk`: what the SDK's Promise client costs per call against a raw `fetch` with the
 * same signing (bench/support/Signing.ts: the canonical string and HMAC of @collector/api, the
 * same bearer token), on the wallet detail read (`GET /open/v1/wallets/:id`) of the API as
 * `npm run api` runs it. Both callers run in this process at the same concurrency, in alternating
 * rounds so that a drift of the machine hits both; each round counts calls answered, their latency,
 * and this process's CPU (the client side: where the SDK's own work shows). Prints
 * `RATIO sdk-wallet-detail <sdk calls/s>/<raw calls/s> = <percent>%` and the client CPU per call
 * of each. BENCH_SECONDS per round (5), BENCH_ROUNDS per caller (3), BENCH_CONCURRENCY (8).
 */
import { CollectorClient } from "@collector/sdk"
import { randomBytes } from "node:crypto"
import { rmSync } from "node:fs"
import { cpus, totalmem } from "node:os"
import { resolve } from "node:path"
import { percentile } from "./support/Percentile.js"
import { runBenchmark } from "./support/RunBenchmark.js"
import { fetchToken, signedHeaders } from "./support/Signing.js"
import { freePort, runTs, startTs, waitForHttp } from "../test-support/Processes.js"

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8)
const root = resolve(import.meta.dirname, "..")

interface Round {
  readonly calls: number
  readonly latencies: Array<number>
  readonly cpuMicros: number
}

/** `call` run by `concurrency` loops for `seconds`; every answer must be the wallet. */
const round = async (call: () => Promise<{ readonly id: string }>, walletId: string): Promise<Round> => {
  const latencies: Array<number> = []
  const deadline = performance.now() + seconds * 1000
  const cpuBefore = process.cpuUsage()
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      const started = performance.now()
      const wallet = await call()
      latencies.push(performance.now() - started)
      if (wallet.id !== walletId) throw new Error(`answered wallet ${wallet.id}, not ${walletId}`)
    }
  }))
  const cpu = process.cpuUsage(cpuBefore)
  return { calls: latencies.length, latencies, cpuMicros: cpu.user + cpu.system }
}

const summary = (name: string, results: ReadonlyArray<Round>) => {
  const calls = results.reduce((sum, r) => sum + r.calls, 0)
  const latencies = results.flatMap((r) => r.latencies)
  const rate = calls / (results.length * seconds)
  const cpuPerCall = results.reduce((sum, r) => sum + r.cpuMicros, 0) / calls
  console.log(
    `${name.padEnd(34)} ${rate.toFixed(0).padStart(6)} calls/s  p50 ${percentile(latencies, 50).toFixed(2)} ms  p99 ${percentile(latencies, 99).toFixed(2)} ms  client CPU ${cpuPerCall.toFixed(0)} µs/call`
  )
  return { rate, cpuPerCall }
}

const main = async () => {
  const dataDir = resolve(root, ".data", `bench-sdk-${process.pid}`)
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    MASTER_KEY: randomBytes(32).toString("base64"),
    EMBEDDED_PG_PORT: String(await freePort()),
    // The client is measured here, not the per-app rate limit (an operator setting).
    API_RATE_PER_SECOND: "100000000",
    API_RATE_BURST: "100000000",
    API_MAX_IN_FLIGHT: "100000"
  }
  const apiPort = await freePort()
  startTs("apps/api/src/main.ts", { ...env, PORT: String(apiPort) })
  const baseUrl = `http://127.0.0.1:${apiPort}`
  await waitForHttp(`${baseUrl}/healthz`)
  try {
    const created = JSON.parse((await runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "bench-sdk", "--networks", "nile", "--json"])).stdout)
    const app = { appId: created.apps[0].app_id as string, secret: created.apps[0].app_secret as string }
    const client = new CollectorClient({ baseUrl, appId: app.appId, appSecret: app.secret })
    const wallet = await client.wallets.create({ custom_id: "bench-wallet" })
    const path = `/open/v1/wallets/${wallet.id}`
    const token = await fetchToken(baseUrl, app)

    // The same work a hand-written integration does: sign, send, check the envelope, take `data`.
    const raw = async () => {
      const response = await fetch(`${baseUrl}${path}`, { headers: signedHeaders(app, "GET", path, token) })
      const body = await response.json() as { code: number; data: { id: string } }
      if (response.status !== 200 || body.code !== 0) throw new Error(`HTTP ${response.status}`)
      return body.data
    }
    const sdk = () => client.wallets.get(wallet.id)

    // Warm both (connections, JIT, the SDK's token) before anything is counted.
    await round(raw, wallet.id)
    await round(sdk, wallet.id)
    const rawRounds: Array<Round> = []
    const sdkRounds: Array<Round> = []
    for (let i = 0; i < rounds; i++) {
      rawRounds.push(await round(raw, wallet.id))
      sdkRounds.push(await round(sdk, wallet.id))
    }
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`)
    console.log(`wallet detail, ${concurrency} concurrent calls, ${rounds} rounds of ${seconds} s each, alternating`)
    const rawResult = summary("raw fetch + same signing", rawRounds)
    const sdkResult = summary("@collector/sdk CollectorClient", sdkRounds)
    console.log(`client CPU added by the SDK: ${(sdkResult.cpuPerCall - rawResult.cpuPerCall).toFixed(0)} µs/call`)
    console.log(`RATIO sdk-wallet-detail ${sdkResult.rate.toFixed(0)}/${rawResult.rate.toFixed(0)} = ${((sdkResult.rate / rawResult.rate) * 100).toFixed(1)}%`)
    await client.close()
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

runBenchmark(main)
