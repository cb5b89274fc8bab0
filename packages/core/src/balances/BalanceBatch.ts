import type { Option } from "effect"
import type { BalanceBacklog } from "./BalanceLedger.js"

/** What one balance-sync batch did, as the heartbeat reports it. */
export interface BalanceBatch {
  /** Wallets the batch picked. */
  readonly picked: number
  /** Wallets whose balances were written. */
  readonly recorded: number
  /** Wallets the node could not be read for (they stay due and go again). */
  readonly failed: number
  /** The highest solidified block a reading was taken at. */
  readonly atBlock: Option.Option<bigint>
  /** The first failure, when there was one: the node, or a wallet's reading. */
  readonly error: Option.Option<string>
  readonly backlog: BalanceBacklog
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** The heartbeat detail, e.g. `12 wallets unsynced, 3 touched by deposits waiting; last batch 24 wallets at block 1000123`. */
export const batchDetail = (batch: BalanceBatch): string => {
  const backlog = `${plural(batch.backlog.unsynced, "wallet")} unsynced, ${batch.backlog.stale} touched by deposits waiting`
  const last = batch.atBlock._tag === "Some"
    ? `last batch ${plural(batch.recorded, "wallet")} at block ${batch.atBlock.value}`
    : `last batch ${plural(batch.recorded, "wallet")}`
  const failure = batch.error._tag === "None"
    ? ""
    : batch.failed === 0
    ? `; ${batch.error.value}`
    : `; ${batch.failed} of ${batch.picked} failed: ${batch.error.value}`
  return `${backlog}; ${last}${failure}`
}
