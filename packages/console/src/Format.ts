/** An amount in a 6-decimal smallest unit as a person reads it, exactly: no floating point. */
const sixDecimals = (units: bigint, unit: string): string => {
  const sign = units < 0n ? "-" : ""
  const abs = units < 0n ? -units : units
  const whole = (abs / 1_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  const fraction = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "")
  return `${sign}${whole}${fraction === "" ? "" : `.${fraction}`} ${unit}`
}

/** USDT in its smallest unit (6 decimals). */
export const usdt = (units: bigint): string => sixDecimals(units, "USDT")

/** TRX from SUN (6 decimals). */
export const trx = (sun: bigint): string => sixDecimals(sun, "TRX")

export const time = (date: Date | null): string => date === null ? "—" : date.toISOString().replace(".000Z", "Z")
