import { Metrics } from "@collector/core"
import type { Route } from "./RouteTable.js"

/**
 * Requests by route and status. `route` is the operation's method and path template
 * (`GET /open/v1/wallets/:id`), never the path asked for, so wallet IDs and probes of unknown
 * paths cannot grow the label set: a path no operation has is `unmatched` (404, or 405 for a
 * known path asked with another method).
 */
export const httpRequests = Metrics.counterFamily(
  "collector_http_requests_total",
  "API requests answered, by route template (method and path) and HTTP status",
  ["route", "status"]
)

/** From a cached read to the request deadline (`API_REQUEST_DEADLINE_MS`, 10 s by default). */
const bounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Seconds from the request's arrival at the gate to its answer, by route template. */
export const httpRequestDuration = Metrics.histogramFamily(
  "collector_http_request_duration_seconds",
  "Seconds from a request's arrival at the gate to its answer, by route template",
  bounds,
  ["route"]
)

type Counter = ReturnType<typeof httpRequests>
type Histogram = ReturnType<typeof httpRequestDuration>

/**
 * Records one answered request. The metrics of a route are found once and kept with the route
 * (and per status), so a request costs two map look-ups and two updates, with nothing allocated:
 * the API's request path is benchmarked (bench/api-throughput.ts).
 */
export const makeRequestMetrics = () => {
  const byRoute = new Map<Route | null, { readonly duration: Histogram; readonly statuses: Map<number, Counter> }>()
  return (route: Route | null, status: number, seconds: number) => {
    let entry = byRoute.get(route)
    if (entry === undefined) {
      const label = route === null ? "unmatched" : `${route.method} ${route.path}`
      entry = { duration: httpRequestDuration(label), statuses: new Map() }
      byRoute.set(route, entry)
    }
    let counter = entry.statuses.get(status)
    if (counter === undefined) {
      counter = httpRequests(route === null ? "unmatched" : `${route.method} ${route.path}`, String(status))
      entry.statuses.set(status, counter)
    }
    counter.unsafeUpdate(1, Metrics.noExtraLabels)
    entry.duration.unsafeUpdate(seconds, Metrics.noExtraLabels)
  }
}
