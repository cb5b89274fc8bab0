import { Agent, request as httpRequest } from "node:http"
import type { LoadRequest, LoadResult } from "./Load"

export interface ConstantRateResult extends LoadResult {
  /** The rate asked for, requests per second. */
  readonly target: number
  readonly p999: number
  readonly max: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/**
 * An open-loop load at a constant rate, in the manner of wrk2: request i is due at start + i/rate,
 * sent at its time whatever became of the earlier ones (spread over the second, not in bursts),
 * and its latency counts from when it was due, so time spent queued behind a slow reply is
 * counted (no coordinated omission). At most `connections` are open; a due request waits for one.
 * Latencies in milliseconds, rounded to 0.1.
 */
export const constantRate = (name: string, baseUrl: string, shape: LoadRequest, seconds: number, rate: number, connections: number) =>
  new Promise<ConstantRateResult>((done, fail) => {
    const url = new URL(shape.path, baseUrl)
    const agent = new Agent({ keepAlive: true, maxSockets: connections })
    const latencies: Array<number> = []
    let sent = 0
    let finished = 0
    let non2xx = 0
    let stopped = false
    const total = Math.floor(seconds * rate)
    const started = performance.now()
    let lastEnd = started

    const send = (due: number) => {
      const req = httpRequest(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: shape.method, headers: shape.headers },
        (res) => {
          if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx++
          res.resume()
          res.on("end", () => {
            const end = performance.now()
            latencies.push(Math.round((end - due) * 10) / 10)
            lastEnd = end
            if (++finished === total) finish()
          })
        }
      )
      req.on("error", (error) => {
        if (!stopped) {
          stopped = true
          agent.destroy()
          fail(error)
        }
      })
      req.end(shape.body)
    }

    const finish = () => {
      stopped = true
      clearInterval(ticker)
      agent.destroy()
      latencies.sort((a, b) => a - b)
      done({
        name,
        target: rate,
        rps: finished / ((lastEnd - started) / 1000),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        p999: percentile(latencies, 99.9),
        max: latencies[latencies.length - 1] ?? 0,
        non2xx
      })
    }

    // Every millisecond, send what has come due since the last tick, each stamped with its own due time.
    const ticker = setInterval(() => {
      const now = performance.now()
      while (sent < total && started + (sent * 1000) / rate <= now) send(started + (sent++ * 1000) / rate)
      if (sent === total) clearInterval(ticker)
    }, 1)
  })
