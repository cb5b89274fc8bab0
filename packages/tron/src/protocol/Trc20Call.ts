import { Either, Option } from "effect"
import * as TronAddress from "../TronAddress.js"
import * as Hex from "./Hex.js"
import { ProtocolError } from "./ProtocolError.js"

/**
 * The TRC20 (ERC-20) ABI the service speaks: call data for `transfer(address,uint256)` and
 * `balanceOf(address)`, the uint256 a constant call returns, and the `Transfer` event log.
 * All hex is without `0x`, as the node's `data`, `parameter`, `constant_result` and log fields
 * are. An ABI `address` is a 32-byte word holding the 20-byte account (TRON's address without
 * its 0x41 prefix) right-aligned.
 */

/** keccak256("transfer(address,uint256)")[0:4]. */
export const transferSelector = "a9059cbb"
/** keccak256("balanceOf(address)")[0:4]. */
export const balanceOfSelector = "70a08231"
/**
 * Tether's freeze list, on the USDT contract (not ERC-20): `isBlackListed(address)` is a public
 * mapping read as a constant call; the owner's `addBlackList(address)` / `removeBlackList(address)`
 * change it. A listed address's `transfer` reverts. keccak256 of each signature, first 4 bytes.
 */
export const isBlackListedSelector = "e47d6060"
export const addBlackListSelector = "0ecb93c0"
export const removeBlackListSelector = "e4997dc5"
/** keccak256("Transfer(address,address,uint256)"): topics[0] of every ERC-20 Transfer log. */
export const transferTopic = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

const wordLength = 64
const uint256Max = 2n ** 256n - 1n
const cleanPadding = "0".repeat(24)
/** What some callers put in an address word: the 21-byte TRON form, 0x41 included. */
const prefixedPadding = "0".repeat(22) + "41"
const wordsPattern = /^[0-9a-f]*$/

const addressWord = (address: string, name: string): Either.Either<string, ProtocolError> =>
  Either.map(Hex.address(address, name), (bytes) => cleanPadding + Hex.fromBytes(bytes.subarray(1)))

const uint256Word = (value: bigint, name: string): Either.Either<string, ProtocolError> =>
  typeof value === "bigint" && value >= 0n && value <= uint256Max
    ? Either.right(value.toString(16).padStart(wordLength, "0"))
    : Either.left(new ProtocolError({ reason: `${name} must be a uint256 bigint, got ${String(value)}` }))

/** The arguments of `transfer(to, amount)`: what `triggersmartcontract` takes as `parameter`. */
export const transferParameter = (to: string, amount: bigint): Either.Either<string, ProtocolError> =>
  Either.flatMap(addressWord(to, "transfer recipient"), (word) => Either.map(uint256Word(amount, "transfer amount"), (value) => word + value))

/** Complete call data of `transfer(to, amount)` (selector + arguments): a TriggerSmartContract's `data`. */
export const transferData = (to: string, amount: bigint): Either.Either<string, ProtocolError> =>
  Either.map(transferParameter(to, amount), (parameter) => transferSelector + parameter)

/** The argument of `balanceOf(owner)`. */
export const balanceOfParameter = (owner: string): Either.Either<string, ProtocolError> => addressWord(owner, "balanceOf owner")

/** Complete call data of `balanceOf(owner)`. */
export const balanceOfData = (owner: string): Either.Either<string, ProtocolError> =>
  Either.map(balanceOfParameter(owner), (parameter) => balanceOfSelector + parameter)

/** The argument of `isBlackListed(owner)`, `addBlackList(owner)` and `removeBlackList(owner)`. */
export const addressParameter = (owner: string): Either.Either<string, ProtocolError> => addressWord(owner, "address argument")

/** The argument words after `selector`, when `data` is exactly that call with `count` words. */
const callWords = (data: string, selector: string, count: number): Option.Option<ReadonlyArray<string>> => {
  if (typeof data !== "string") return Option.none()
  const hex = data.toLowerCase()
  if (hex.length !== selector.length + count * wordLength || !wordsPattern.test(hex) || !hex.startsWith(selector)) return Option.none()
  return Option.some(Array.from({ length: count }, (_, i) => hex.slice(selector.length + i * wordLength, selector.length + (i + 1) * wordLength)))
}

/**
 * The Base58Check address in an ABI address word. Accepts the correct form (12 zero bytes) and
 * the 41-prefixed one that some TRON callers produce: the USDT contract (old Solidity) reads
 * only the low 20 bytes, so both name the same account in call data. Any other upper bytes are
 * refused.
 */
const callAddress = (word: string): Option.Option<string> =>
  word.startsWith(cleanPadding) || word.startsWith(prefixedPadding) ? TronAddress.fromHex(word.slice(24)) : Option.none()

/** Recipient and amount of `transfer(address,uint256)` call data; None for any other call. */
export const decodeTransfer = (data: string): Option.Option<{ readonly to: string; readonly amount: bigint }> =>
  Option.flatMap(callWords(data, transferSelector, 2), ([to, amount]) =>
    Option.map(callAddress(to!), (address) => ({ to: address, amount: BigInt("0x" + amount!) })))

/** Owner of `balanceOf(address)` call data; None for any other call. */
export const decodeBalanceOf = (data: string): Option.Option<{ readonly owner: string }> =>
  Option.flatMap(callWords(data, balanceOfSelector, 1), ([owner]) => Option.map(callAddress(owner!), (address) => ({ owner: address })))

/** The address argument of a one-address call under `selector` (e.g. `isBlackListedSelector`); None for any other call. */
export const decodeAddressCall = (data: string, selector: string): Option.Option<string> =>
  Option.flatMap(callWords(data, selector, 1), ([word]) => callAddress(word!))

/** A single uint256 word, e.g. `constant_result[0]` of `balanceOf`; None unless exactly 32 bytes of hex. */
export const decodeUint256 = (word: string): Option.Option<bigint> =>
  typeof word === "string" && word.length === wordLength && /^[0-9a-fA-F]+$/.test(word) ? Option.some(BigInt("0x" + word)) : Option.none()

/** A log entry as `gettransactioninfobyid` / `gettransactioninfobyblocknum` list it. */
export interface Log {
  /** The emitting contract: 20-byte hex, without the 41 prefix. */
  readonly address: string
  readonly topics: ReadonlyArray<string>
  readonly data?: string
}

export interface TransferLog {
  /** The emitting token contract, Base58Check: compare it with the expected token before trusting the log. */
  readonly contract: string
  readonly from: string
  readonly to: string
  readonly amount: bigint
}

/** An indexed address topic: exactly 12 zero bytes and the 20-byte account. */
const topicAddress = (topic: unknown): Option.Option<string> =>
  typeof topic === "string" && topic.length === wordLength && topic.toLowerCase().startsWith(cleanPadding)
    ? TronAddress.fromHex(topic.slice(24))
    : Option.none()

/**
 * The ERC-20 Transfer of a log: topics[0] is the Transfer signature and there are exactly
 * three topics (ERC-721 Transfer logs carry a fourth, the token id, and no data). Address
 * topics must have clean zero padding: unlike call data, a topic is what the contract wrote,
 * and a dirty one would not be the plain account it appears to name. None for anything else.
 * The log says nothing about success: count it only from a receipt whose result is SUCCESS.
 */
export const decodeTransferLog = (log: Log): Option.Option<TransferLog> => {
  if (typeof log !== "object" || log === null || !Array.isArray(log.topics) || log.topics.length !== 3) return Option.none()
  if (typeof log.topics[0] !== "string" || log.topics[0].toLowerCase() !== transferTopic) return Option.none()
  return Option.all({
    contract: typeof log.address === "string" ? TronAddress.fromHex(log.address) : Option.none(),
    from: topicAddress(log.topics[1]),
    to: topicAddress(log.topics[2]),
    amount: typeof log.data === "string" ? decodeUint256(log.data) : Option.none()
  })
}
