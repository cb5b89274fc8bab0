import { Metrics } from "@collector/core"

/**
 * How a request to a node ended, one attempt at a time (a retried call counts each attempt):
 * `ok` (2xx; java-tron's own errors come with 200 and are the caller's to judge), `rejected`
 * (another 4xx or 3xx, not retried), `unavailable` (429 or 5xx), `timeout` (no reply within
 * `TRON_REQUEST_TIMEOUT_MS`), `transport` (the connection failed or broke).
 */
export type NodeRequestOutcome = "ok" | "rejected" | "unavailable" | "timeout" | "transport"

/** Node requests by network, API path (`/wallet/getnowblock`, ...) and outcome. */
export const nodeRequests = Metrics.counterFamily(
  "collector_node_requests_total",
  "Requests to TRON nodes, each attempt once, by network, API path and outcome (ok, rejected, unavailable, timeout, transport)",
  ["network", "endpoint", "outcome"]
)

/** From a little under a local node's answer to the longest timeout worth waiting for. */
const bounds = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Seconds from sending a request to its reply (or failure), by network and API path. */
export const nodeRequestDuration = Metrics.histogramFamily(
  "collector_node_request_duration_seconds",
  "Seconds a request to a TRON node took, each attempt once, by network and API path",
  bounds,
  ["network", "endpoint"]
)
