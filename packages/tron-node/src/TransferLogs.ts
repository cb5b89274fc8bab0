import type { Chain } from "@collector/core"
import { Trc20Call } from "@collector/tron"
import { Either } from "effect"
import { logAddress } from "./LogAddress.js"

/**
 * The USDT Transfers of a block, read straight from the parsed `gettransactioninfobyblocknum`
 * reply. This is the scanner's hot path (about 300 receipts a block on mainnet), so it reads
 * only what a deposit needs and checks each of those fields itself rather than decoding every
 * receipt with a schema:
 * - every receipt: `blockNumber`, which must be the block asked for;
 * - receipts with a log of the USDT contract: `id`, `receipt.result` and the shape of every log;
 *   other receipts cannot hold a deposit and are not read further.
 *
 * Only receipts whose `receipt.result` is SUCCESS count: a reverted call keeps no logs on chain,
 * and `contractResult` proves nothing. Logs rather than call data are read so that
 * `transferFrom` and transfers made by other contracts are seen.
 *
 * A log of the USDT contract with the Transfer signature as topics[0] must be a well-formed
 * ERC-20 Transfer (exactly three topics, address topics with clean zero padding, a one-word
 * amount), the rules of Trc20Call.decodeTransferLog; otherwise the whole block fails (Left),
 * because skipping the log could silently lose a deposit.
 *
 * Integers: the amount is hex in `data` and read with BigInt, exact at any size; the only JSON
 * number read is `blockNumber`, which must be a safe integer (or a digit string), so the reply
 * may be parsed with plain JSON.parse: numbers it would round are never read.
 */

export interface BlockReceipts {
  /** How many receipts the reply lists: none for a block with transactions means "not yet". */
  readonly receiptCount: number
  readonly transfers: ReadonlyArray<Chain.UsdtTransfer>
}

const hashPattern = /^[0-9a-fA-F]{64}$/
const wordLength = 64
const cleanPadding = "0".repeat(24)

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** A protobuf int64 as java-tron prints it; missing is 0. Undefined when not an exact integer. */
const int64 = (value: unknown): bigint | undefined =>
  value === undefined
    ? 0n
    : typeof value === "number" && Number.isSafeInteger(value)
    ? BigInt(value)
    : typeof value === "string" && /^-?\d+$/.test(value)
    ? BigInt(value)
    : undefined

/** True when a log `address` (20-byte hex, any case, with or without 41) is `contractHex20` (lower case). */
const isFrom = (address: unknown, contractHex20: string): boolean => {
  if (typeof address !== "string") return false
  const hex = address.length === 42 && (address.startsWith("41")) ? address.slice(2) : address
  return hex.length === 40 && (hex === contractHex20 || hex.toLowerCase() === contractHex20)
}

/** The address in an indexed address topic: exactly 12 zero bytes, then the 20-byte account id. */
const topicAddress = (topic: unknown): string | undefined =>
  typeof topic === "string" && topic.length === wordLength && topic.startsWith(cleanPadding) ? logAddress(topic.slice(24)) : undefined

const uint256 = (word: unknown): bigint | undefined =>
  typeof word === "string" && word.length === wordLength && hashPattern.test(word) ? BigInt("0x" + word) : undefined

const isLogShape = (log: unknown): boolean =>
  isObject(log) &&
  (log["address"] === undefined || typeof log["address"] === "string") &&
  (log["data"] === undefined || typeof log["data"] === "string") &&
  (log["topics"] === undefined || (Array.isArray(log["topics"]) && log["topics"].every((topic) => typeof topic === "string")))

/**
 * The transfers of `entries` (the reply's array) for block `blockNumber`. `usdt` is the
 * contract's Base58Check address and its 20-byte hex in lower case. Left is the reason the reply
 * cannot be trusted.
 */
export const usdtTransfers = (
  entries: unknown,
  blockNumber: bigint,
  usdt: { readonly address: string; readonly hex20: string }
): Either.Either<BlockReceipts, string> => {
  if (!Array.isArray(entries)) return Either.left("the reply is not a list of receipts")
  const transfers: Array<Chain.UsdtTransfer> = []
  for (let i = 0; i < entries.length; i++) {
    const entry: unknown = entries[i]
    if (!isObject(entry)) return Either.left(`receipt ${i} is not an object`)
    const number = int64(entry["blockNumber"])
    if (number === undefined) return Either.left(`receipt ${i} has blockNumber ${String(entry["blockNumber"])}, not an exact integer`)
    if (number !== blockNumber) return Either.left(`block ${blockNumber} lists ${String(entry["id"])} of block ${number}`)
    const logs = entry["log"]
    if (logs === undefined) continue
    if (!Array.isArray(logs)) return Either.left(`receipt ${i} has a log that is not a list`)
    if (!logs.some((log) => isObject(log) && isFrom(log["address"], usdt.hex20))) continue
    // A receipt that may hold a deposit: everything read from it is checked.
    const id = entry["id"]
    if (typeof id !== "string" || !hashPattern.test(id)) return Either.left(`receipt ${i} has id ${String(id)}, not a transaction id`)
    const receipt = entry["receipt"]
    if (receipt !== undefined && !isObject(receipt)) return Either.left(`transaction ${id} has a receipt that is not an object`)
    const result = receipt?.["result"]
    if (result !== undefined && typeof result !== "string") return Either.left(`transaction ${id} has receipt.result ${String(result)}`)
    if (!logs.every(isLogShape)) return Either.left(`transaction ${id} has a log of an unexpected shape`)
    if (result !== "SUCCESS") continue
    for (let logIndex = 0; logIndex < logs.length; logIndex++) {
      const log = logs[logIndex] as { address?: string; topics?: ReadonlyArray<string>; data?: string }
      const topics = log.topics ?? []
      if (!isFrom(log.address, usdt.hex20) || topics[0]?.toLowerCase() !== Trc20Call.transferTopic) continue
      const from = topics.length === 3 ? topicAddress(topics[1]) : undefined
      const to = topics.length === 3 ? topicAddress(topics[2]) : undefined
      const amount = uint256(log.data)
      if (from === undefined || to === undefined || amount === undefined) {
        return Either.left(`transaction ${id} log ${logIndex} is a malformed USDT Transfer log`)
      }
      transfers.push({ txid: id.toLowerCase(), logIndex, from, to, amount, contract: usdt.address })
    }
  }
  return Either.right({ receiptCount: entries.length, transfers })
}
