import type { DeliveryAttemptItem, DeliveryRoundItem, NotificationEventDetail } from "@collector/api"
import type { Notifications } from "@collector/core"

const time = (date: Date) => date.toISOString()
const timeOrNull = (date: Date | null) => (date === null ? null : date.toISOString())

/**
 * The stored payload is parsed, never rebuilt: its members and their order are what every
 * delivery encrypted (string IDs and amounts, so JSON.parse loses no digits).
 */
/** An event's delivery state, as the notification detail and a sweep task's webhook summary show it. */
export const presentDeliveryState = (event: Notifications.NotificationEvent) => ({
  network: event.network,
  id: event.id,
  event_type: event.eventType,
  status: event.status,
  attempts: event.attempts,
  current_round: event.currentRound,
  next_attempt: timeOrNull(event.nextAttempt),
  deadline_at: time(event.deadlineAt),
  last_error: event.lastError,
  created_at: time(event.createdAt),
  delivered_at: timeOrNull(event.deliveredAt)
})

export const presentEvent = (event: Notifications.NotificationEvent): typeof NotificationEventDetail.Type => ({
  ...presentDeliveryState(event),
  payload: JSON.parse(event.payload)
})

export const presentRound = (round: Notifications.DeliveryRound): typeof DeliveryRoundItem.Type => ({
  round: round.round,
  url: round.url,
  started_at: time(round.startedAt),
  deadline_at: time(round.deadlineAt),
  ended_at: timeOrNull(round.endedAt),
  outcome: round.outcome,
  reason: round.reason
})

export const presentAttempt = (attempt: Notifications.DeliveryAttempt): typeof DeliveryAttemptItem.Type => ({
  round: attempt.round,
  attempt: attempt.attempt,
  url: attempt.url,
  started_at: time(attempt.startedAt),
  ended_at: timeOrNull(attempt.endedAt),
  duration_ms: attempt.durationMs,
  http_status: attempt.httpStatus,
  response_excerpt: attempt.responseExcerpt,
  error: attempt.error,
  outcome: attempt.outcome
})
