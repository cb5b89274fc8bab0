import type { Deposits, Kernel, Notifications } from "@collector/core"

/** An event row read with `eventColumns` (table alias `e`); the ID as text, never a JS number. */
export const eventColumns = `e.id::text AS id, e.network, e.event_type, e.status, e.attempts, e.current_round, e.next_attempt,
  e.deadline_at, e.last_error, e.created_at, e.delivered_at, e.payload`

export interface EventRow {
  readonly id: string
  readonly network: Kernel.Network
  readonly event_type: Notifications.EventType
  readonly status: Notifications.DeliveryStatus
  readonly attempts: number
  readonly current_round: number
  readonly next_attempt: Date | null
  readonly deadline_at: Date
  readonly last_error: string
  readonly created_at: Date
  readonly delivered_at: Date | null
  readonly payload: string
}

export const toEvent = (row: EventRow): Notifications.NotificationEvent => ({
  id: row.id as Deposits.EventId,
  network: row.network,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  currentRound: row.current_round,
  nextAttempt: row.next_attempt,
  deadlineAt: row.deadline_at,
  lastError: row.last_error,
  createdAt: row.created_at,
  deliveredAt: row.delivered_at,
  payload: row.payload
})

export interface RoundRow {
  readonly round: number
  readonly url: string
  readonly started_at: Date
  readonly deadline_at: Date
  readonly ended_at: Date | null
  readonly outcome: Notifications.DeliveryOutcome | null
  readonly reason: string
}

export const toRound = (row: RoundRow): Notifications.DeliveryRound => ({
  round: row.round,
  url: row.url,
  startedAt: row.started_at,
  deadlineAt: row.deadline_at,
  endedAt: row.ended_at,
  outcome: row.outcome,
  reason: row.reason
})

export interface AttemptRow {
  readonly round: number
  readonly attempt: number
  readonly url: string
  readonly started_at: Date
  readonly ended_at: Date | null
  readonly duration_ms: number | null
  readonly http_status: number | null
  readonly response_excerpt: string
  readonly error: string
  readonly outcome: Notifications.DeliveryOutcome | null
}

export const toAttempt = (row: AttemptRow): Notifications.DeliveryAttempt => ({
  round: row.round,
  attempt: row.attempt,
  url: row.url,
  startedAt: row.started_at,
  endedAt: row.ended_at,
  durationMs: row.duration_ms,
  httpStatus: row.http_status,
  responseExcerpt: row.response_excerpt,
  error: row.error,
  outcome: row.outcome
})
