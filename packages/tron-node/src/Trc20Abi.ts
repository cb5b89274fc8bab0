import { TronAddress } from "@collector/tron"
import { Option } from "effect"

/**
 * The few ABI pieces a TRC20 (USDT) adapter needs: 32-byte words for call parameters and the
 * Transfer event. Kept local until the protocol helpers in @collector/tron are consolidated.
 */

/** keccak256("Transfer(address,address,uint256)"). */
export const transferTopic = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
export const transferSignature = "transfer(address,uint256)"
export const balanceOfSignature = "balanceOf(address)"
/** 4-byte selector of `transfer(address,uint256)`, the start of a transfer's call data. */
export const transferSelector = "a9059cbb"

const wordPattern = /^[0-9a-fA-F]{64}$/
const maxUint256 = (1n << 256n) - 1n

/**
 * An address as an ABI word: the 20-byte account id left-padded to 32 bytes. The 0x41 prefix is
 * not part of it: a word with `41` in it (as some callers send) names a different EVM address.
 */
export const addressWord = (address: string): Option.Option<string> =>
  Option.map(TronAddress.toHex(address), (hex21) => hex21.slice(2).padStart(64, "0"))

/** None outside 0..2^256-1: such an amount cannot be encoded, and wrapping it would send another amount. */
export const uint256Word = (value: bigint): Option.Option<string> =>
  value < 0n || value > maxUint256 ? Option.none() : Option.some(value.toString(16).padStart(64, "0"))

export const decodeUint256 = (word: string): Option.Option<bigint> =>
  wordPattern.test(word) ? Option.some(BigInt(`0x${word}`)) : Option.none()

/** The Base58Check address in the last 20 bytes of an indexed address topic. */
export const addressFromWord = (word: string): Option.Option<string> =>
  wordPattern.test(word) ? TronAddress.fromHex(word.slice(24)) : Option.none()

/** The parameter block of `transfer(to, amount)` (without the selector). */
export const transferParameter = (to: string, amount: bigint): Option.Option<string> =>
  Option.zipWith(addressWord(to), uint256Word(amount), (a, b) => a + b)
