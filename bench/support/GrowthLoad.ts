import { spawn } from "node:child_process"
import { Agent, request as httpRequest } from "node:http"
import { fileURLToPath } from "node:url"
import type { LoadRequest } from "./Load.js"
import { percentileOfSorted } from "./Percentile.js"

export interface GrowthLoadResult {
  /** Requests answered per second over the load (the rate asked for, unless the server fell behind). */
  readonly rps: number
  readonly requests: number
  readonly p50: number
  readonly p99: number
  readonly max: number
  /** Answers outside 2xx. */
  readonly non2xx: number
  /** Requests without an answer (a connection refused or reset), each named in `firstError`. */
  readonly errors: number
  readonly firstError?: string
  /** Every answered request's latency, sorted (ms, rounded to 0.1), to pool several loads' percentiles. */
  readonly latencies: ReadonlyArray<number>
}

/**
 * A constant-rate load for bench/growth.ts, as bench/support/ConstantRate.ts (request i due at
 * start + i/rate, latency from its due time, at most `connections` open), with two differences
 * that matter at a low rate held for a long time:
 *
 * - idle kept-alive sockets are closed by the client a second before the server would close them
 *   (an agent `timeout`, without which Node's agent ignores the server's `Keep-Alive: timeout=5`
 *   hint): otherwise a request sent on a socket the server is closing that moment fails with
 *   ECONNRESET, the client's race, not the server's failure. Sockets are also taken first in,
 *   first out, so none sits idle at 100 req/s in the first place;
 * - a failed request is counted, not fatal: the benchmark reports it and exits 1 at the end.
 */
export const growthLoad = (baseUrl: string, shape: LoadRequest, seconds: number, rate: number, connections: number) =>
  new Promise<GrowthLoadResult>((done) => {
    const url = new URL(shape.path, baseUrl)
    const agent = new Agent({ keepAlive: true, maxSockets: connections, timeout: 4000, scheduling: "fifo" })
    const latencies: Array<number> = []
    const total = Math.floor(seconds * rate)
    let sent = 0
    let finished = 0
    let non2xx = 0
    let errors = 0
    let firstError: string | undefined
    const started = performance.now()
    let lastEnd = started

    const settle = (due: number, ok: boolean) => {
      const end = performance.now()
      if (ok) latencies.push(Math.round((end - due) * 10) / 10)
      lastEnd = end
      if (++finished === total) finish()
    }
    const send = (due: number) => {
      const req = httpRequest(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: shape.method, headers: shape.headers },
        (res) => {
          if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx++
          res.resume()
          res.on("end", () => settle(due, true))
        }
      )
      req.on("error", (error) => {
        errors++
        firstError ??= String(error)
        settle(due, false)
      })
      req.end(shape.body)
    }
    const finish = () => {
      clearInterval(ticker)
      agent.destroy()
      latencies.sort((a, b) => a - b)
      done({
        rps: finished / ((lastEnd - started) / 1000),
        requests: finished,
        p50: percentileOfSorted(latencies, 50),
        p99: percentileOfSorted(latencies, 99),
        max: latencies[latencies.length - 1] ?? 0,
        non2xx,
        errors,
        ...(firstError === undefined ? {} : { firstError }),
        latencies
      })
    }
    // Every millisecond, send what has come due since the last tick, each stamped with its own due time.
    const ticker = setInterval(() => {
      const now = performance.now()
      while (sent < total && started + (sent * 1000) / rate <= now) send(started + (sent++ * 1000) / rate)
      if (sent === total) clearInterval(ticker)
    }, 1)
  })

/**
 * `growthLoad` in a process of its own, so that the benchmark's own work (and garbage) holds up
 * neither the load's timing nor its latencies. Resolves once the load has ended.
 */
export const growthLoadInChild = (baseUrl: string, shape: LoadRequest, seconds: number, rate: number, connections: number) =>
  new Promise<GrowthLoadResult>((done, fail) => {
    const child = spawn(process.execPath, ["--conditions=@collector/source", "--import", "tsx", fileURLToPath(import.meta.url)], {
      env: { ...process.env, GROWTH_LOAD_JOB: JSON.stringify({ baseUrl, shape, seconds, rate, connections }) },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.on("error", fail)
    child.on("exit", (code) => {
      const line = output.split("\n").find((l) => l.startsWith("@@result "))
      if (code !== 0 || line === undefined) fail(new Error(`the load generator exited with ${code}: ${output.slice(0, 500)}`))
      else done(JSON.parse(line.slice("@@result ".length)) as GrowthLoadResult)
    })
  })

if (process.env.GROWTH_LOAD_JOB !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  const job = JSON.parse(process.env.GROWTH_LOAD_JOB) as { baseUrl: string; shape: LoadRequest; seconds: number; rate: number; connections: number }
  growthLoad(job.baseUrl, job.shape, job.seconds, job.rate, job.connections).then((result) => {
    process.stdout.write(`@@result ${JSON.stringify(result)}\n`)
    process.exit(0)
  })
}
