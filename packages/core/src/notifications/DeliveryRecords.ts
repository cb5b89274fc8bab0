/** How a finished round or attempt ended; null while it is still running. */
export type DeliveryOutcome = "delivered" | "failed"

/**
 * One delivery round of an event. A round the dispatcher has not started yet (a fresh event or
 * a re-push waiting for its first attempt) has no stored row; it is shown with an empty `url`,
 * starting when the event's round was opened.
 */
export interface DeliveryRound {
  readonly round: number
  /** The target fixed when the round started; empty until then or when none was configured. */
  readonly url: string
  readonly startedAt: Date
  readonly deadlineAt: Date
  readonly endedAt: Date | null
  readonly outcome: DeliveryOutcome | null
  readonly reason: string
}

/** One HTTP attempt within a round. */
export interface DeliveryAttempt {
  readonly round: number
  readonly attempt: number
  readonly url: string
  readonly startedAt: Date
  readonly endedAt: Date | null
  readonly durationMs: number | null
  readonly httpStatus: number | null
  readonly responseExcerpt: string
  readonly error: string
  readonly outcome: DeliveryOutcome | null
}

/** Paging of an event's rounds or attempts; `round` narrows attempts to one round. */
export interface DeliveryQuery {
  readonly page: number
  readonly pageSize: number
  readonly round?: number
}
