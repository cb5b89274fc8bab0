import type { UsdtTransfer } from "@collector/core"
import { Trc20Call, TronAddress } from "@collector/tron"
import { Either, Option } from "effect"
import type { TransactionInfo } from "./NodeResponses"

/** The 20-byte hex form a log `address` carries (java-tron prints it without the 41 prefix). */
const logAddress = (address: string): string => {
  const hex = address.toLowerCase()
  return hex.length === 42 && hex.startsWith("41") ? hex.slice(2) : hex
}

/**
 * True for a raw receipt with at least one log emitted by `contractHex` (20-byte hex, any case,
 * with or without 41). Used before decoding, so it only reads, never trusts, the raw shape.
 */
export const hasLogOf = (contractHex: string) => (entry: unknown): boolean => {
  const logs = (entry as { log?: unknown } | null)?.log
  return Array.isArray(logs) &&
    logs.some((log) => typeof (log as { address?: unknown })?.address === "string" && logAddress((log as { address: string }).address) === contractHex)
}

/**
 * The USDT Transfer logs of a block's receipts. Only receipts whose `receipt.result` is SUCCESS
 * count: a reverted call keeps no logs on chain, and `contractResult` proves nothing. Logs rather
 * than call data are read so that `transferFrom` and transfers made by other contracts are seen.
 *
 * A log is a USDT Transfer when the USDT contract emitted it with the Transfer signature as
 * topics[0]; it is then decoded with Trc20Call.decodeTransferLog (exactly three topics, address
 * topics with clean zero padding, a one-word amount). Where that decoder answers None for such a
 * log, which it also does for "not an ERC-20 Transfer", the adapter does not skip the log: it
 * fails the whole block (Left), because skipping it could silently lose a deposit.
 */
export const usdtTransfers = (
  infos: ReadonlyArray<TransactionInfo>,
  usdtContract: string
): Either.Either<ReadonlyArray<UsdtTransfer>, string> => {
  const contractHex = Option.getOrThrowWith(TronAddress.toHex(usdtContract), () => new Error(`not an address: ${usdtContract}`)).slice(2)
  const transfers: Array<UsdtTransfer> = []
  for (const info of infos) {
    if (info.receipt.result !== "SUCCESS") continue
    for (const [logIndex, log] of info.log.entries()) {
      if (logAddress(log.address) !== contractHex || log.topics[0]?.toLowerCase() !== Trc20Call.transferTopic) continue
      const transfer = Trc20Call.decodeTransferLog(log)
      if (Option.isNone(transfer)) return Either.left(`transaction ${info.id} log ${logIndex} is a malformed USDT Transfer log`)
      const { from, to, amount } = transfer.value
      transfers.push({ txid: info.id, logIndex, from, to, amount, contract: usdtContract })
    }
  }
  return Either.right(transfers)
}
