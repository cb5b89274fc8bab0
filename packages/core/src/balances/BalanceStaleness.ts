import * as RowRule from "../kernel/RowRule.js"

/**
 * When a deposit's mark on a wallet moves it ahead of the balance rotation and when a reading
 * clears the mark, written once: the memory driver evaluates these rules, the PostgreSQL driver
 * renders them into its statements.
 */

/** The block of the deposit that marked the wallet's balance stale, if any. */
export interface StaleMarkFields {
  readonly balanceStaleFrom: bigint | null
}

export interface AtSolidified {
  readonly solidified: bigint
}

export interface AtReading {
  readonly atBlock: bigint
}

const staleFrom = RowRule.field<StaleMarkFields>("balanceStaleFrom")

/** Marked at or below the solidified block: a reading can clear it now, so the wallet goes first. */
export const staleJumpsRotation: RowRule.Rule<StaleMarkFields, AtSolidified> = RowRule.compare(
  staleFrom,
  "<=",
  RowRule.param<AtSolidified>("solidified")
)

/** Every other wallet (unmarked, or marked above the solidified block) waits its turn in the rotation. */
export const staleWaitsInRotation: RowRule.Rule<StaleMarkFields, AtSolidified> = RowRule.any<StaleMarkFields, AtSolidified>(
  RowRule.isNull(staleFrom),
  RowRule.compare(staleFrom, ">", RowRule.param<AtSolidified>("solidified"))
)

/** Only a reading at or above the mark's block can have seen what marked the wallet: it clears the mark. */
export const readingClearsMark: RowRule.Rule<StaleMarkFields, AtReading> = RowRule.compare(
  staleFrom,
  "<=",
  RowRule.param<AtReading>("atBlock")
)
