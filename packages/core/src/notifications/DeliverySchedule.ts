import { Duration } from "effect"

/** The contract: attempt k of a round starts this long after the round's start (k = 1..20). */
export const attemptOffsets: ReadonlyArray<Duration.Duration> = [
  Duration.seconds(0),
  Duration.seconds(10),
  Duration.seconds(30),
  Duration.minutes(1),
  Duration.minutes(2),
  Duration.minutes(5),
  Duration.minutes(10),
  Duration.minutes(20),
  Duration.minutes(30),
  Duration.minutes(45),
  Duration.hours(1),
  Duration.minutes(90),
  Duration.hours(2),
  Duration.hours(3),
  Duration.hours(4),
  Duration.hours(6),
  Duration.hours(8),
  Duration.hours(12),
  Duration.hours(16),
  Duration.hours(20)
]

export const maxAttemptsPerRound = attemptOffsets.length

/** A round ends at the latest this long after it started. */
export const roundLength = Duration.hours(24)

export const roundDeadline = (roundStart: Date): Date => new Date(roundStart.getTime() + Duration.toMillis(roundLength))

/**
 * When attempt `attempt` (1-based) of a round that started at `roundStart` is due, with ±10%
 * jitter of its offset (`unit` in [0, 1) from the caller's random source, so tests can fix it).
 * None once the round has had all its attempts.
 */
export const attemptDueAt = (roundStart: Date, attempt: number, unit: number): Date | null => {
  const offset = attemptOffsets[attempt - 1]
  if (offset === undefined) return null
  const millis = Duration.toMillis(offset)
  return new Date(roundStart.getTime() + Math.round(millis * (0.9 + 0.2 * unit)))
}
