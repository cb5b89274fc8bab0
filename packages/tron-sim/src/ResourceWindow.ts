/**
 * How bandwidth and energy usage recovers: java-tron records the usage and the time it was last
 * consumed, and lets it decay linearly to zero over a 24-hour window (ResourceProcessor.increase).
 * So 600 free bandwidth used at once is fully back a day later and half back after 12 hours.
 * Times are milliseconds from Effect's Clock (or a block's timestamp), never the wall clock.
 */

export const windowMs = 24 * 60 * 60 * 1000

const window = BigInt(windowMs)

/** What is left at `now` of `usage` recorded at `since`; rounded half up like java-tron's `round`. */
export const recovered = (usage: bigint, since: number, now: number): bigint => {
  if (usage <= 0n) return 0n
  const elapsed = now - since
  if (elapsed <= 0) return usage
  if (elapsed >= windowMs) return 0n
  const remaining = BigInt(windowMs - Math.floor(elapsed))
  return (usage * remaining + window / 2n) / window
}

/** The usage after consuming `amount` more at `now`. */
export const increased = (usage: bigint, since: number, amount: bigint, now: number): bigint => recovered(usage, since, now) + amount

/** What is available of `limit` at `now` given the recorded usage; never negative. */
export const available = (limit: bigint, usage: bigint, since: number, now: number): bigint => {
  const left = limit - recovered(usage, since, now)
  return left > 0n ? left : 0n
}
