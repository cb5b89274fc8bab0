/**
 * The floor of each way issue 36 point 1 names for serving the tenant API, side by side in one
 * run: one route (`GET /ping`, the contract's envelope) on bare node:http, on node:http with the
 * handler an Effect program run by a ManagedRuntime, on a one-endpoint Effect `HttpApi` server (how
 * our API is served today) and on a one-route `HttpRouter` server (bench/support/FloorServer.ts).
 * Each server runs in its own process; autocannon drives it from this one. Printed per server and
 * round: requests per second, p50/p99, and the server process's CPU per request in µs (from
 * /proc, 10 ms ticks), then the best round of each against bare node:http.
 * `npm run bench:server-floor`; BENCH_SECONDS per row (5), BENCH_CONNECTIONS (32), BENCH_ROUNDS (2:
 * the servers take turns, so a change of load on the shared machine falls on all of them).
 */
import { cpus, loadavg, totalmem } from "node:os"
import { freePort, startTs, stopAll, waitForHttp } from "../test-support/Processes.js"
import { load } from "./support/Load.js"
import { processTreeCpu } from "./support/ProcessCpu.js"
import { runBenchmark } from "./support/RunBenchmark.js"

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
const log = (line: string) => console.log(line)

const kinds = [
  ["bare", "bare node:http"],
  ["runtime", "node:http + handler as an Effect program (ManagedRuntime.runCallback)"],
  ["httpapi", "Effect HttpApi server, one endpoint (HttpApiBuilder.serve)"],
  ["router", "Effect HttpRouter server, one route"]
] as const

interface Row {
  readonly kind: string
  readonly round: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly cpuMicros: number
  readonly non2xx: number
}

const main = async () => {
  const servers = await Promise.all(kinds.map(async ([kind, name]) => {
    const port = await freePort()
    const child = startTs("bench/support/FloorServer.ts", { PORT: String(port), FLOOR_KIND: kind })
    return { kind, name, url: `http://127.0.0.1:${port}`, pid: child.pid! }
  }))
  // Generous: on a loaded machine loading the framework through tsx alone has taken over a minute.
  for (const s of servers) await waitForHttp(`${s.url}/ping`, 300_000)
  // The same answer from each, byte for byte and with the same content type.
  const answers = await Promise.all(servers.map(async (s) => {
    const res = await fetch(`${s.url}/ping`)
    return { s, status: res.status, type: res.headers.get("content-type"), text: await res.text() }
  }))
  for (const a of answers) {
    if (a.status !== 200 || a.type !== answers[0]!.type || a.text !== answers[0]!.text) {
      throw new Error(`${a.s.name} answers ${a.status} ${a.type} ${a.text}, not ${answers[0]!.type} ${answers[0]!.text}`)
    }
  }
  log(`every server answers 200 ${answers[0]!.type} ${answers[0]!.text}`)
  for (const s of servers) await load("warm-up", s.url, { method: "GET", path: "/ping" }, 2, connections)

  const rows: Array<Row> = []
  for (let round = 1; round <= rounds; round++) {
    for (const s of servers) {
      const before = processTreeCpu(s.pid).own
      const r = await load(s.name, s.url, { method: "GET", path: "/ping" }, seconds, connections)
      const used = processTreeCpu(s.pid).own - before
      const row = { kind: s.kind, round, rps: r.rps, p50: r.p50, p99: r.p99, cpuMicros: (used * 1e6) / (r.requests ?? 1), non2xx: r.non2xx }
      rows.push(row)
      log(`round ${round}, ${s.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${row.cpuMicros.toFixed(1)} µs CPU per request; load average ${loadavg()[0]!.toFixed(1)}`)
    }
  }
  stopAll()

  log(`\nmachine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; load average at the end ${loadavg().map((x) => x.toFixed(1)).join(" ")}`)
  log(`load: autocannon in the benchmark process, ${connections} connections, ${seconds} s per row, ${rounds} rounds taking turns; CPU per request of the server process alone`)
  log("| server | round | req/s | p50 ms | p99 ms | server CPU µs/request | non-2xx |")
  log("|---|---:|---:|---:|---:|---:|---:|")
  for (const r of rows) log(`| ${kinds.find(([k]) => k === r.kind)![1]} | ${r.round} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpuMicros.toFixed(1)} | ${r.non2xx} |`)
  // Best round of each (the least disturbed by the other tenants of the machine).
  const best = (kind: string) => rows.filter((r) => r.kind === kind).reduce((a, b) => (b.rps > a.rps ? b : a))
  const bare = best("bare")
  log("\n| server (best round) | req/s | vs bare | server CPU µs/request | over bare, µs/request |")
  log("|---|---:|---:|---:|---:|")
  for (const [kind, name] of kinds) {
    const b = best(kind)
    log(`| ${name} | ${b.rps.toFixed(0)} | ${((b.rps / bare.rps) * 100).toFixed(1)}% | ${b.cpuMicros.toFixed(1)} | ${(b.cpuMicros - bare.cpuMicros).toFixed(1)} |`)
  }
  if (rows.some((r) => r.non2xx > 0)) process.exitCode = 1
}

runBenchmark(main)
