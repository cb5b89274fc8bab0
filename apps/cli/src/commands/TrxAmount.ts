import { Chain } from "@collector/core"
import { Effect, Option } from "effect"
import { UsageError } from "../CliError.js"

const sunPerTrx = 1_000_000n

/**
 * `--trx` as SUN: a decimal TRX amount (the core's rule: at most 6 decimals, since a SUN is the
 * smallest unit and money is never rounded silently), at least 1 TRX because the chain refuses a
 * smaller stake or unstake.
 */
export const parseTrx = (text: unknown): Effect.Effect<bigint, UsageError> => {
  if (typeof text !== "string") return Effect.fail(new UsageError({ message: "--trx takes an amount of TRX, e.g. --trx 1000 or --trx 12.5" }))
  const sun = Chain.sunFromTrx(text.trim())
  if (Option.isNone(sun)) {
    return Effect.fail(new UsageError({ message: `--trx ${text}: a positive amount of TRX with at most 6 decimals (1 SUN = 0.000001 TRX)` }))
  }
  if (sun.value < sunPerTrx) return Effect.fail(new UsageError({ message: `--trx ${text}: the chain stakes and unstakes at least 1 TRX` }))
  return Effect.succeed(sun.value)
}
