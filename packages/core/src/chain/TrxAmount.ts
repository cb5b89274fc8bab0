import { Option } from "effect"

/** SUN in a TRX: six decimals. */
const sunPerTrxDigits = 6

/**
 * TRX written as a decimal ("3.5", "8.43276", "24") in SUN, by string arithmetic (never a JS
 * number). More than six decimals is a fraction of a SUN and is refused, unless the extra
 * digits are zeros: money is never rounded silently.
 */
export const sunFromTrx = (text: string): Option.Option<bigint> => {
  const match = /^(\d{1,24})(?:\.(\d{1,30}))?$/.exec(text)
  if (match === null) return Option.none()
  const fraction = match[2] ?? ""
  if (/[1-9]/.test(fraction.slice(sunPerTrxDigits))) return Option.none()
  return Option.some(BigInt(match[1]!) * 10n ** BigInt(sunPerTrxDigits) + BigInt(fraction.slice(0, sunPerTrxDigits).padEnd(sunPerTrxDigits, "0")))
}
