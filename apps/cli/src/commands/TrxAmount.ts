import { Effect } from "effect"
import { UsageError } from "../CliError.js"

const sunPerTrx = 1_000_000n

/**
 * `--trx` as SUN: a decimal TRX amount with at most 6 decimals (a SUN is the smallest unit, so
 * more would be rounded, and money is never rounded silently), at least 1 TRX because the chain
 * refuses a smaller stake or unstake. Read as text straight to bigint: no float ever holds it.
 */
export const parseTrx = (text: unknown): Effect.Effect<bigint, UsageError> => {
  if (typeof text !== "string") return Effect.fail(new UsageError({ message: "--trx takes an amount of TRX, e.g. --trx 1000 or --trx 12.5" }))
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim())
  if (match === null) {
    return Effect.fail(new UsageError({ message: `--trx ${text}: a positive amount of TRX with at most 6 decimals (1 SUN = 0.000001 TRX)` }))
  }
  const sun = BigInt(match[1]!) * sunPerTrx + BigInt((match[2] ?? "").padEnd(6, "0"))
  if (sun < sunPerTrx) return Effect.fail(new UsageError({ message: `--trx ${text}: the chain stakes and unstakes at least 1 TRX` }))
  return Effect.succeed(sun)
}
