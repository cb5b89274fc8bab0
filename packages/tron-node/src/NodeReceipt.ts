import type { Chain } from "@collector/core"
import type { TransactionInfo } from "./NodeResponses.js"

/** The receipt outcomes the port names; every other TVM failure (BAD_JUMP_DESTINATION, ...) is FAILED. */
const named: ReadonlySet<string> = new Set<Chain.ReceiptResult>(["SUCCESS", "OUT_OF_ENERGY", "REVERT", "OUT_OF_TIME"])

/**
 * A contract call always carries `receipt.result`. A system contract (a TRX transfer, a
 * delegation) has none: it succeeded unless the info says `"result": "FAILED"`.
 */
const resultOf = (info: TransactionInfo): Chain.ReceiptResult => {
  const result = info.receipt.result
  if (result === undefined) return info.result === "FAILED" ? "FAILED" : "SUCCESS"
  return named.has(result) ? (result as Chain.ReceiptResult) : "FAILED"
}

/**
 * The receipt of a transaction info. Energy usage is the total (own, delegated, burned and the
 * contract owner's share, penalty included); bandwidth usage is what free or staked bandwidth
 * covered, since burned bandwidth only shows as `net_fee`.
 */
export const toReceipt = (info: TransactionInfo): Chain.Receipt => ({
  txid: info.id,
  blockNumber: info.blockNumber,
  blockTime: new Date(Number(info.blockTimeStamp)),
  result: resultOf(info),
  fee: info.fee,
  energyFee: info.receipt.energy_fee,
  energyUsage: info.receipt.energy_usage_total,
  bandwidthFee: info.receipt.net_fee,
  bandwidthUsage: info.receipt.net_usage
})
