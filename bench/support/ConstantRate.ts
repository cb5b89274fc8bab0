import { spawn } from "node:child_process"
import { Agent, request as httpRequest } from "node:http"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import type { LoadRequest, LoadResult } from "./Load.js"
import { percentileOfSorted } from "./Percentile.js"

export interface ConstantRateResult extends LoadResult {
  /** The rate asked for, requests per second. */
  readonly target: number
  readonly p999: number
  readonly max: number
  /** Requests that ended, answered or not. */
  readonly requests: number
  /** The longest the load generator's own event loop was held up (ms): a stall there shows as latency too. */
  readonly generatorStall: number
  /** Every request slower than 20 ms (the first 10,000): when it was due (wall clock, ms since the epoch) and its latency, to set beside a server's log. */
  readonly slow: ReadonlyArray<readonly [number, number]>
  /** The load's wall-clock window: the first request's due time and the last reply's arrival (ms since the epoch). */
  readonly window: readonly [number, number]
  /** Requests without an answer (a connection refused or reset): counted, the first named in `firstError`. */
  readonly errors: number
  readonly firstError?: string
  /** Every answered request's latency, sorted (ms, rounded to 0.1), to pool several loads' percentiles. */
  readonly latencies: ReadonlyArray<number>
}

/**
 * An open-loop load at a constant rate, in the manner of wrk2: request i is due at start + i/rate,
 * sent at its time whatever became of the earlier ones (spread over the second, not in bursts),
 * and its latency counts from when it was due, so time spent queued behind a slow reply is
 * counted (no coordinated omission). At most `connections` are open; a due request waits for one.
 * Latencies in milliseconds, rounded to 0.1. A request that gets no answer is counted in `errors`,
 * not fatal: the caller decides what a failed request means.
 */
export const constantRate = (name: string, baseUrl: string, shape: LoadRequest, seconds: number, rate: number, connections: number) =>
  new Promise<ConstantRateResult>((done) => {
    const url = new URL(shape.path, baseUrl)
    // Without a socket timeout Node ignores the server's `Keep-Alive: timeout=5`, and at a low
    // rate a request can go out on a socket the server is just closing (ECONNRESET).
    const agent = new Agent({ keepAlive: true, maxSockets: connections, timeout: 4000, scheduling: "fifo" })
    const latencies: Array<number> = []
    const slow: Array<readonly [number, number]> = []
    // performance.now() is relative to this process's start; the wall clock of a due time is this plus it.
    const wallOffset = Date.now() - performance.now()
    let sent = 0
    let finished = 0
    let non2xx = 0
    let errors = 0
    let firstError: string | undefined
    const total = Math.floor(seconds * rate)
    const loopDelay = monitorEventLoopDelay({ resolution: 5 })
    loopDelay.enable()
    const started = performance.now()
    let lastEnd = started

    const send = (due: number) => {
      const req = httpRequest(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: shape.method, headers: shape.headers },
        (res) => {
          if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx++
          res.resume()
          res.on("end", () => {
            const latency = Math.round((performance.now() - due) * 10) / 10
            latencies.push(latency)
            if (latency > 20 && slow.length < 10_000) slow.push([wallOffset + due, latency])
            settle()
          })
        }
      )
      req.on("error", (error) => {
        errors++
        firstError ??= String(error)
        settle()
      })
      req.end(shape.body)
    }

    const settle = () => {
      lastEnd = performance.now()
      if (++finished === total) finish()
    }

    const finish = () => {
      clearInterval(ticker)
      agent.destroy()
      loopDelay.disable()
      latencies.sort((a, b) => a - b)
      done({
        name,
        target: rate,
        rps: finished / ((lastEnd - started) / 1000),
        p50: percentileOfSorted(latencies, 50),
        p99: percentileOfSorted(latencies, 99),
        p999: percentileOfSorted(latencies, 99.9),
        max: latencies[latencies.length - 1] ?? 0,
        generatorStall: Math.round(loopDelay.max / 1e5) / 10,
        slow,
        window: [wallOffset + started, wallOffset + lastEnd],
        non2xx,
        requests: finished,
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
 * `constantRate` in a process of its own, so that the load generator's event loop holds none of
 * the benchmark's garbage (a collection of it stalls the generator, and the stall shows as latency).
 */
export const constantRateInChild = (name: string, baseUrl: string, shape: LoadRequest, seconds: number, rate: number, connections: number) =>
  new Promise<ConstantRateResult>((done, fail) => {
    const child = spawn(process.execPath, ["--conditions=@collector/source", "--import", "tsx", fileURLToPath(import.meta.url)], {
      env: { ...process.env, CONSTANT_RATE_JOB: JSON.stringify({ name, baseUrl, shape, seconds, rate, connections }) },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.on("error", fail)
    child.on("exit", (code) => {
      const line = output.split("\n").find((l) => l.startsWith("@@result "))
      if (code !== 0 || line === undefined) fail(new Error(`the load generator exited with ${code}: ${output.slice(0, 500)}`))
      else done(JSON.parse(line.slice("@@result ".length)) as ConstantRateResult)
    })
  })

if (process.env.CONSTANT_RATE_JOB !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  const job = JSON.parse(process.env.CONSTANT_RATE_JOB) as {
    name: string
    baseUrl: string
    shape: LoadRequest
    seconds: number
    rate: number
    connections: number
  }
  constantRate(job.name, job.baseUrl, job.shape, job.seconds, job.rate, job.connections).then(
    (result) => {
      process.stdout.write(`@@result ${JSON.stringify(result)}\n`)
      process.exit(0)
    },
    (error) => {
      console.error(error)
      process.exit(1)
    }
  )
}
