import { counterFamily, gaugeFamily } from "../metrics/MetricFamily.js"

/**
 * Events due for delivery now, as the notifier last counted them (every `NOTIFIER_STATUS_MS`,
 * with its heartbeat): the network's whole backlog, the same figure from every worker.
 */
export const webhookBacklog = gaugeFamily(
  "collector_webhook_backlog",
  "Webhook events due for delivery, as the notifier last counted them",
  ["network"]
)

/** How an attempt ended, as the metric's `outcome` label says it. */
export type AttemptOutcomeLabel =
  /** The receiver acknowledged it (HTTP 200 with `code` 0). */
  | "delivered"
  /** The receiver answered, but not with an acknowledgement (a 4xx/5xx, a redirect, another body). */
  | "rejected"
  /** No answer: the address could not be reached, the answer timed out, or the attempt could not be sent (target refused, key unavailable). */
  | "failed"
  /** The worker stopped while the attempt was out; closed as failed. */
  | "interrupted"
  /** A fault inside the worker ended it. */
  | "worker_fault"

/** Webhook attempts closed, by outcome; each is also one row of the event's attempt history. */
export const webhookAttempts = counterFamily(
  "collector_webhook_attempts_total",
  "Webhook delivery attempts, by outcome (delivered, rejected, failed, interrupted, worker_fault)",
  ["network", "outcome"],
  { outcome: ["delivered", "rejected", "failed", "interrupted", "worker_fault"] }
)
