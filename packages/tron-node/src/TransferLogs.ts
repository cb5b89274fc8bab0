import type { UsdtTransfer } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { Either, Option } from "effect"
import type { TransactionInfo } from "./NodeResponses"
import { addressFromWord, decodeUint256, transferTopic } from "./Trc20Abi"

/** The 20-byte hex form a log `address` carries (java-tron prints it without the 41 prefix). */
const logAddress = (address: string): string => {
  const hex = address.toLowerCase()
  return hex.length === 42 && hex.startsWith("41") ? hex.slice(2) : hex
}

/**
 * The USDT Transfer logs of a block's receipts. Only receipts whose `receipt.result` is SUCCESS
 * count: a reverted call keeps no logs on chain, and `contractResult` proves nothing. Logs rather
 * than call data are read so that `transferFrom` and transfers made by other contracts are seen.
 * A Transfer log of the USDT contract that cannot be decoded fails the whole block (Left): skipping
 * it would silently lose a deposit.
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
      if (logAddress(log.address) !== contractHex || log.topics[0]?.toLowerCase() !== transferTopic) continue
      const from = addressFromWord(log.topics[1] ?? "")
      const to = addressFromWord(log.topics[2] ?? "")
      const amount = decodeUint256(log.data)
      if (log.topics.length !== 3 || Option.isNone(from) || Option.isNone(to) || Option.isNone(amount)) {
        return Either.left(`transaction ${info.id} log ${logIndex} is a malformed USDT Transfer log`)
      }
      transfers.push({ txid: info.id, logIndex, from: from.value, to: to.value, amount: amount.value, contract: usdtContract })
    }
  }
  return Either.right(transfers)
}
