import { Option } from "effect"
import { selectorOf } from "./RequestBody.js"

/**
 * Call data of the simulated tokens' batch calls, `batchTransfer(address[],uint256[])` and the
 * issuer's `batchMint(address[],uint256[])`: the Solidity ABI encoding of two dynamic arrays
 * (two offsets, then each array as its length and its words). Many TRC20 tokens carry a
 * `batchTransfer` of this signature; it is how one transaction gets several Transfer logs.
 * Addresses are 21-byte hex (41…); amounts uint256.
 */

export interface BatchItem {
  readonly to: string
  readonly amount: bigint
}

/** 88d695b2: the selector of the common TRC20 `batchTransfer(address[],uint256[])`. */
export const batchTransferSelector = selectorOf("batchTransfer(address[],uint256[])")
/** 68573107: the simulated issuer's mint of several amounts in one call. */
export const batchMintSelector = selectorOf("batchMint(address[],uint256[])")

const word = (value: bigint) => value.toString(16).padStart(64, "0")

/** The arguments after the selector, as solc encodes them. */
export const encodeBatch = (items: ReadonlyArray<BatchItem>): string => {
  const n = BigInt(items.length)
  const head = word(64n) + word(64n + 32n * (n + 1n))
  const addresses = word(n) + items.map((item) => item.to.slice(2).padStart(64, "0")).join("")
  const amounts = word(n) + items.map((item) => word(item.amount)).join("")
  return head + addresses + amounts
}

export const batchData = (selector: string, items: ReadonlyArray<BatchItem>): string => selector + encodeBatch(items)

/** The words of the argument bytes, or None when they are not whole words. */
const wordsOf = (hex: string): Option.Option<ReadonlyArray<bigint>> =>
  /^(?:[0-9a-f]{64})*$/.test(hex) ? Option.some(hex.match(/.{64}/g)?.map((w) => BigInt("0x" + w)) ?? []) : Option.none()

/** The array at byte offset `offset`: its length word, then that many words; None when out of bounds. */
const arrayAt = (words: ReadonlyArray<bigint>, offset: bigint): Option.Option<ReadonlyArray<bigint>> => {
  if (offset % 32n !== 0n || offset / 32n >= BigInt(words.length)) return Option.none()
  const start = Number(offset / 32n)
  const length = words[start]!
  if (length > BigInt(words.length - start - 1)) return Option.none()
  return Option.some(words.slice(start + 1, start + 1 + Number(length)))
}

const addressMask = (1n << 160n) - 1n

/**
 * The items of a batch call's arguments (after the selector). None when the encoding is broken,
 * the arrays differ in length or are empty, or an address word has bits above its 20 bytes:
 * the contract would revert on each of these.
 */
export const decodeBatch = (hex: string): Option.Option<ReadonlyArray<BatchItem>> =>
  Option.gen(function*() {
    const words = yield* wordsOf(hex.toLowerCase())
    if (words.length < 2) return yield* Option.none()
    const addresses = yield* arrayAt(words, words[0]!)
    const amounts = yield* arrayAt(words, words[1]!)
    if (addresses.length === 0 || addresses.length !== amounts.length) return yield* Option.none()
    if (addresses.some((address) => (address & ~addressMask) !== 0n)) return yield* Option.none()
    return addresses.map((address, i) => ({ to: "41" + address.toString(16).padStart(40, "0"), amount: amounts[i]! }))
  })
