import autocannon from "autocannon"

export interface LoadResult {
  readonly name: string
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  /** Requests completed (autocannon's total), for costs per request. */
  readonly requests?: number
}

export interface LoadRequest {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

/** Drives one request shape for `seconds`, at full speed or at `rate` requests per second overall. */
export const load = (name: string, baseUrl: string, request: LoadRequest, seconds: number, connections: number, rate?: number) =>
  new Promise<LoadResult>((done, fail) => {
    autocannon(
      {
        url: baseUrl,
        connections,
        duration: seconds,
        ...(rate === undefined ? {} : { overallRate: rate }),
        requests: [{ method: request.method, path: request.path, headers: request.headers ?? {}, body: request.body }]
      },
      (error, result) => {
        if (error) return fail(error)
        done({
          name,
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx + result.errors + result.timeouts,
          requests: result.requests.total
        })
      }
    )
  })
