const pattern = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/

/** An RFC 3339 time as an exact instant: whole microseconds plus any finer digits. */
export interface Rfc3339Instant {
  /** Microseconds since the epoch, rounded down. */
  readonly micros: bigint
  /** The fraction's digits after the sixth, without trailing zeros ("" when the time is a whole microsecond). */
  readonly finer: string
}

/**
 * The exact instant of an RFC 3339 time with a zone, or undefined when the text is not one (or
 * names an impossible date or zone offset). Microseconds, not a JS Date, because PostgreSQL
 * compares at that precision and inclusive bounds must agree with it.
 */
export const parseRfc3339 = (text: string): Rfc3339Instant | undefined => {
  const m = pattern.exec(text)
  if (m === null) return undefined
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined
  // setUTCFullYear, unlike Date.UTC, does not read years 0 to 99 as 1900 to 1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  if (date.getUTCDate() !== day) return undefined
  const utc = date.getTime() + ((hour * 60 + minute) * 60 + Math.min(second, 59)) * 1000
  let offsetMinutes = 0
  if (m[8] === undefined) {
    const [offsetHours, offsetMins] = [Number(m[10]), Number(m[11])]
    if (offsetHours > 23 || offsetMins > 59) return undefined
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMins)
  }
  const digits = m[7] ?? ""
  const fraction = BigInt(digits.padEnd(6, "0").slice(0, 6))
  return { micros: (BigInt(utc) - BigInt(offsetMinutes) * 60_000n) * 1000n + fraction, finer: digits.slice(6).replace(/0+$/, "") }
}

/** Microseconds since the epoch (rounded down) of an RFC 3339 time with a zone; see `parseRfc3339`. */
export const rfc3339Micros = (text: string): bigint | undefined => parseRfc3339(text)?.micros

/** Orders two instants exactly, digits finer than a microsecond included. */
export const compareInstants = (a: Rfc3339Instant, b: Rfc3339Instant): -1 | 0 | 1 => {
  if (a.micros !== b.micros) return a.micros < b.micros ? -1 : 1
  const width = Math.max(a.finer.length, b.finer.length)
  const [x, y] = [a.finer.padEnd(width, "0"), b.finer.padEnd(width, "0")]
  return x === y ? 0 : x < y ? -1 : 1
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")

/**
 * A microsecond instant as PostgreSQL timestamptz input, always in UTC: PostgreSQL refuses zone
 * offsets beyond 15:59 and the year 0, which valid RFC 3339 times can have. Years before 1 are
 * written the way PostgreSQL reads them (year 0 is 1 BC).
 */
export const postgresTimestamp = (micros: bigint): string => {
  const millis = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n)
  const date = new Date(Number(millis))
  const subMillis = Number(micros - millis * 1000n)
  const year = date.getUTCFullYear()
  const time = `${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:` +
    `${pad(date.getUTCSeconds(), 2)}.${pad(date.getUTCMilliseconds(), 3)}${pad(subMillis, 3)}Z`
  return year >= 1 ? `${pad(year, 4)}-${time}` : `${pad(1 - year, 4)}-${time} BC`
}
