const pattern = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/

/**
 * Microseconds since the epoch of an RFC 3339 time with a zone, or undefined when the text is
 * not one (or names an impossible date). Microseconds, not a JS Date, because PostgreSQL
 * compares at that precision and inclusive bounds must agree with it.
 */
export const rfc3339Micros = (text: string): bigint | undefined => {
  const m = pattern.exec(text)
  if (m === null) return undefined
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined
  const utc = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59))
  if (new Date(utc).getUTCDate() !== day) return undefined
  const offsetMinutes = m[8] !== undefined ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]))
  const fraction = BigInt((m[7] ?? "").padEnd(6, "0").slice(0, 6))
  return (BigInt(utc) - BigInt(offsetMinutes) * 60_000n) * 1000n + fraction
}
