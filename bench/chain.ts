/**
 * Blocks per second the real node adapter (`@collector/tron-node`, `blockTransfers`) fetches and
 * parses from the TRON simulator for mainnet-shaped blocks, beside the simulator's own serve rate
 * for the same two endpoints (autocannon), measured in the same run on the same machine. The
 * simulator runs as its own process (`apps/devchain`), so it does not share the adapter's event
 * loop. Run with `npm run bench:chain` (BENCH_SECONDS, BENCH_BLOCKS, BENCH_IN_FLIGHT; BENCH_HTTP=fetch
 * for the fetch client instead of node:http, the worker's; BENCH_CPU_PROF=1 profiles this process
 * over the adapter's in-flight row, BENCH_SIM_CPU_PROF=1 the simulator, under `.data/profiles`).
 */
import type { Chain } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { defaultNodeConfig, nodeHttpClient, TronNodeChain } from "@collector/tron-node"
import { FetchHttpClient, HttpClient } from "@effect/platform"
import autocannon from "autocannon"
import { Duration, Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { cpus, totalmem } from "node:os"
import { freePort, startTs, waitForHttp } from "../test-support/Processes.js"
import { childProfileFlags, phaseProfiler } from "./support/CpuProfile.js"
import { runBenchmark } from "./support/RunBenchmark.js"

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const blockCount = Number(process.env.BENCH_BLOCKS ?? 200)
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 8)
/** Mainnet-shaped: about 300 transactions a block, half of them USDT transfers. */
const usdtPerBlock = Number(process.env.BENCH_USDT_PER_BLOCK ?? 150)
const otherPerBlock = Number(process.env.BENCH_OTHER_PER_BLOCK ?? 150)
const senderCount = 150
const useFetch = process.env.BENCH_HTTP === "fetch"

// ---------------------------------------------------------------------------------------------
// Helpers: addresses, the control API, CPU time of the simulator process

/** An outside account: a random 20-byte address, as valid as a real one. */
const outsideAddress = () => Option.getOrThrow(TronAddress.fromHex(`41${randomBytes(20).toString("hex")}`))

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 300)}`)
  return { json: JSON.parse(text) as Record<string, unknown>, bytes: Buffer.byteLength(text) }
}

/** Runs `tasks` with at most `limit` at a time. */
const pool = async (tasks: ReadonlyArray<() => Promise<unknown>>, limit: number) => {
  let next = 0
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < tasks.length) await tasks[next++]!()
  }))
}

/** User + system CPU seconds of a process, from /proc (Linux; 0 elsewhere). */
const ticksPerSecond = 100
const cpuSecondsOf = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
  } catch {
    return 0
  }
}
const ownCpuSeconds = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1e6
}

/** Wall time and the CPU each side used while `run` ran. */
const withCpu = async <A>(simPid: number, run: () => Promise<A>) => {
  const wall = performance.now()
  const sim = cpuSecondsOf(simPid)
  const own = ownCpuSeconds()
  const result = await run()
  const elapsed = (performance.now() - wall) / 1000
  return { result, benchCpu: (ownCpuSeconds() - own) / elapsed, simCpu: (cpuSecondsOf(simPid) - sim) / elapsed }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0

interface Row {
  readonly name: string
  readonly inFlight: number
  readonly blocksPerSecond: number
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly failures: number
  readonly benchCpu: number
  readonly simCpu: number
  readonly simulator: boolean
}

// ---------------------------------------------------------------------------------------------
// The simulator's own serve rate: autocannon, each connection asking for one block's header and
// then the same block's receipts, cycling over the prepared blocks.

const serveRate = (url: string, numbers: ReadonlyArray<number>, connections: number, duration: number) =>
  new Promise<autocannon.Result>((done, fail) => {
    let next = 0
    type Context = { num?: number }
    autocannon(
      {
        url,
        connections,
        duration,
        requests: [
          {
            method: "POST",
            path: "/wallet/getblock",
            headers: { "content-type": "application/json" },
            setupRequest: (request, context) => {
              const num = numbers[next++ % numbers.length]!
              ;(context as Context).num = num
              return { ...request, body: JSON.stringify({ id_or_num: String(num), detail: false }) }
            }
          },
          {
            method: "POST",
            path: "/wallet/gettransactioninfobyblocknum",
            headers: { "content-type": "application/json" },
            setupRequest: (request, context) => ({ ...request, body: JSON.stringify({ num: (context as Context).num }) })
          }
        ]
      },
      (error, result) => (error ? fail(error) : done(result))
    )
  })

// ---------------------------------------------------------------------------------------------
// The adapter: `blockTransfers` over the prepared blocks with `workers` blocks in flight.

const adapterRate = (
  chain: Chain.ChainService,
  numbers: ReadonlyArray<bigint>,
  workers: number,
  duration: number,
  expectedTransfers: number
) =>
  Effect.gen(function*() {
    let next = 0
    let failures = 0
    const latencies: Array<number> = []
    const deadline = Date.now() + duration * 1000
    const worker = Effect.gen(function*() {
      while (Date.now() < deadline) {
        const number = numbers[next++ % numbers.length]!
        const started = performance.now()
        const outcome = yield* Effect.either(chain.blockTransfers(number))
        latencies.push(performance.now() - started)
        if (outcome._tag === "Left" || outcome.right.transfers.length !== expectedTransfers) failures++
      }
    })
    const started = performance.now()
    yield* Effect.all(Array.from({ length: workers }, () => worker), { concurrency: "unbounded", discard: true })
    const elapsed = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)
    return { blocks: latencies.length, elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures }
  })

// ---------------------------------------------------------------------------------------------

const main = async () => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const sim = startTs("apps/devchain/src/main.ts", { TRON_SIM_PORT: String(port), TRON_SIM_BLOCK_MS: "0", TRON_SIM_SEED: "bench-chain" }, {
    nodeArgs: childProfileFlags(process.env.BENCH_SIM_CPU_PROF === "1")
  })
  await waitForHttp(url)
  const simPid = sim.pid!

  // Senders: outside accounts (exchanges, say) that hold USDT, minted by the issuer.
  const prepareStarted = performance.now()
  const senders = Array.from({ length: senderCount }, outsideAddress)
  await pool(senders.map((to) => () => post(`${url}/sim/mint`, { to, amount: "1000000000000000" })), 16)
  await post(`${url}/sim/mine`, { blocks: 1 })

  // Blocks: USDT transfers and TRX transfers between outside addresses, interleaved, then one block.
  const numbers: Array<number> = []
  let transactionsPerBlock = 0
  for (let b = 0; b < blockCount; b++) {
    const tasks: Array<() => Promise<unknown>> = []
    for (let i = 0; i < Math.max(usdtPerBlock, otherPerBlock); i++) {
      if (i < usdtPerBlock) {
        const from = senders[(b + i) % senders.length]!
        tasks.push(() => post(`${url}/sim/transfer`, { from, to: outsideAddress(), amount: String(1 + Math.floor(Math.random() * 1e9)) }))
      }
      if (i < otherPerBlock) {
        tasks.push(() => post(`${url}/sim/transfer`, { token: "TRX", from: outsideAddress(), to: outsideAddress(), amount: String(1 + Math.floor(Math.random() * 1e8)) }))
      }
    }
    await pool(tasks, 16)
    const mined = (await post(`${url}/sim/mine`, { blocks: 1 })).json.blocks as Array<{ number: number; transactions: number }>
    numbers.push(mined[0]!.number)
    transactionsPerBlock = mined[0]!.transactions
    if (transactionsPerBlock !== usdtPerBlock + otherPerBlock) throw new Error(`block ${mined[0]!.number} has ${transactionsPerBlock} transactions, not ${usdtPerBlock + otherPerBlock}`)
    if ((b + 1) % 50 === 0) console.error(`prepared ${b + 1}/${blockCount} blocks (${((performance.now() - prepareStarted) / 1000).toFixed(0)} s)`)
  }
  const prepareSeconds = (performance.now() - prepareStarted) / 1000
  // Sizes of one block's two replies, as the node sends them.
  const headerBytes = (await post(`${url}/wallet/getblock`, { id_or_num: String(numbers[0]), detail: false })).bytes
  const infosReply = await post(`${url}/wallet/gettransactioninfobyblocknum`, { num: numbers[0] })
  const infos = infosReply.json as unknown as Array<{ log?: Array<unknown> }>
  const logsPerBlock = infos.reduce((n, info) => n + (info.log?.length ?? 0), 0)

  // The adapter, configured as production would be but with the request budget (an operator
  // setting, TRON_REQUESTS_PER_SECOND, default 10) raised so that the budget is not what is measured.
  let calls = 0
  const counted = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, HttpClient.tapRequest(() => Effect.sync(() => void calls++)))
  ).pipe(Layer.provide(useFetch ? FetchHttpClient.layer : nodeHttpClient()))
  const chain = await Effect.runPromise(TronNodeChain.make(defaultNodeConfig("nile", {
    fullNodeUrl: url,
    solidityUrl: url,
    requestsPerSecond: 1_000_000,
    requestTimeout: Duration.seconds(30),
    retries: 0
  })).pipe(Effect.provide(counted)))
  const bigNumbers = numbers.map(BigInt)

  // Warm-up (JIT, connections) on both sides.
  await serveRate(url, numbers, inFlight, 2)
  await Effect.runPromise(adapterRate(chain, bigNumbers, inFlight, 2, usdtPerBlock))

  const rows: Array<Row> = []
  for (const connections of [1, inFlight]) {
    const { benchCpu, result, simCpu } = await withCpu(simPid, () => serveRate(url, numbers, connections, seconds))
    rows.push({
      name: "simulator serve rate (autocannon, getblock + gettransactioninfobyblocknum)",
      inFlight: connections,
      requestsPerSecond: result.requests.average,
      blocksPerSecond: result.requests.average / 2,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.non2xx + result.errors + result.timeouts,
      benchCpu,
      simCpu,
      simulator: true
    })
  }
  let adapterCalls = 0
  let adapterBlocks = 0
  for (const workers of [1, inFlight]) {
    const before = calls
    const profiler = phaseProfiler(process.env.BENCH_CPU_PROF === "1" && workers === inFlight, "adapter")
    await profiler.start()
    const { benchCpu, result, simCpu } = await withCpu(simPid, () => Effect.runPromise(adapterRate(chain, bigNumbers, workers, seconds, usdtPerBlock)))
    const profileFile = await profiler.stop()
    if (profileFile !== undefined) console.error(`CPU profile of the adapter at ${workers} in flight: ${profileFile}`)
    adapterCalls += calls - before
    adapterBlocks += result.blocks
    rows.push({
      name: `adapter blockTransfers (fetch + parse, ${useFetch ? "fetch" : "node:http"})`,
      inFlight: workers,
      requestsPerSecond: (calls - before) / result.elapsed,
      blocksPerSecond: result.blocks / result.elapsed,
      p50: result.p50,
      p99: result.p99,
      failures: result.failures,
      benchCpu,
      simCpu,
      simulator: false
    })
  }

  const ceiling = Math.max(...rows.filter((r) => r.simulator).map((r) => r.blocksPerSecond))
  const simAt = (n: number) => rows.find((r) => r.simulator && r.inFlight === n)!.blocksPerSecond
  const f = (x: number, digits = 0) => x.toFixed(digits)
  console.log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`)
  console.log(
    `blocks: ${numbers.length} prepared in ${f(prepareSeconds)} s through /sim/transfer + /sim/mine; each ${transactionsPerBlock} transactions ` +
      `(${usdtPerBlock} USDT transfers, ${logsPerBlock} Transfer logs; ${otherPerBlock} TRX transfers); ` +
      `replies ${f(headerBytes / 1024, 1)} KiB (getblock) + ${f(infosReply.bytes / 1024, 1)} KiB (gettransactioninfobyblocknum)`
  )
  console.log(`load: ${seconds} s per row after a warm-up; simulator in its own process (apps/devchain); adapter request budget 1,000,000/s, retries 0\n`)
  console.log("| measure | in flight | blocks/s | req/s | p50 ms | p99 ms | failures | CPU bench / sim | vs sim same in-flight | vs sim ceiling |")
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.inFlight} | ${f(r.blocksPerSecond, 1)} | ${f(r.requestsPerSecond)} | ${f(r.p50, 1)} | ${f(r.p99, 1)} | ${r.failures} | ` +
        `${f(r.benchCpu * 100)}% / ${f(r.simCpu * 100)}% | ${f((r.blocksPerSecond / simAt(r.inFlight)) * 100, 1)}% | ${f((r.blocksPerSecond / ceiling) * 100, 1)}% |`
    )
  }
  console.log(`\nnode calls per block (adapter): ${f(adapterCalls / adapterBlocks, 2)} (${adapterCalls} HTTP requests for ${adapterBlocks} blocks)`)
  console.log("latency: per block for the adapter (two calls in a row), per request for autocannon")
  process.exitCode = rows.some((r) => r.failures > 0) ? 1 : 0
}

runBenchmark(main)
