import { Schema } from "effect"

export const ConfirmationRule = Schema.Literal("block_1", "block_3", "block_6", "block_12", "solidified")
export type ConfirmationRule = typeof ConfirmationRule.Type

export const allConfirmationRules: ReadonlyArray<ConfirmationRule> = ConfirmationRule.literals
export const defaultConfirmationRule: ConfirmationRule = "solidified"

/**
 * Whether a log in `blockNumber` meets `rule` with the chain at `head` and `solidified`, and
 * with how many confirmations: `block_N` needs head - block + 1 >= N and counts them;
 * `solidified` needs the block at or below the solidified one and counts nothing (null).
 */
export const confirmationsUnder = (
  rule: ConfirmationRule,
  blockNumber: bigint,
  chain: { readonly head: bigint; readonly solidified: bigint }
): { readonly met: false } | { readonly met: true; readonly confirmations: number | null } => {
  if (rule === "solidified") return blockNumber <= chain.solidified ? { met: true, confirmations: null } : { met: false }
  const needed = BigInt(rule.slice("block_".length))
  const count = chain.head - blockNumber + 1n
  return count >= needed ? { met: true, confirmations: Number(count) } : { met: false }
}
