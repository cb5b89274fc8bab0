import { counterFamily, gaugeFamily } from "../metrics/MetricFamily.js"

/**
 * The measures of a network's nodes when it has several (`failoverChain`). `node` is the node's
 * position and host (`1:api.trongrid.io`), never its URL, which may carry credentials.
 */

/** 1 while the node serves calls, 0 while it rests after a failure or for lagging behind. */
export const nodeUp = gaugeFamily("collector_node_up", "1 while the TRON node serves calls, 0 while it rests after a failure or lag", ["network", "node"])

/** Times a node was set aside, by why: it failed or timed out (`unavailable`) or fell behind (`lagging`). */
export const nodeFailovers = counterFamily(
  "collector_node_failovers_total",
  "Times a TRON node was set aside for a cool-down, by reason",
  ["network", "node", "reason"],
  { reason: ["unavailable", "lagging"] }
)

/** Blocks two nodes read differently while cross-checking (`TRON_NODE_CROSS_CHECK`): their bookings wait. */
export const nodeDisagreements = counterFamily(
  "collector_node_disagreements_total",
  "Blocks two TRON nodes read differently while cross-checking; the block's bookings wait until they agree",
  ["network"]
)
