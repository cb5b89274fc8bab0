import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { createBase58check } from "@scure/base"
import { Option, Schema } from "effect"

/**
 * TRON addresses: Base58Check(0x41 || last 20 bytes of keccak256(uncompressed public key
 * without its 04 prefix)). The 20-byte body is Ethereum's; 0x41 makes every address 34
 * characters starting with "T". The node API also speaks the 21-byte hex form (`41…`), and
 * TRC20 Transfer logs carry the bare 20 bytes, so this module converts between all three.
 */

/** Base58Check with a 4-byte double-SHA256 checksum, as Bitcoin and TRON use it. */
const base58check = createBase58check(sha256)

/** The version byte of every mainnet and testnet TRON address. */
const prefix = 0x41
/** 0x41 plus the 20-byte account id. */
const byteLength = 21
/** Base58 of 21 bytes plus the 4-byte checksum, with a leading 0x41, is always 34 characters. */
const textLength = 34

/**
 * True when `text` is a TRON address in its Base58Check form. Each rule closes a way a
 * malformed address could slip through: the length rules out payloads that decode with a valid
 * checksum but are not 21 bytes, the checksum catches typos, and the prefix byte rejects
 * Bitcoin-style addresses that are otherwise well formed. Never throws: it guards untrusted input.
 */
export const isValidTronAddress = (text: string): boolean => {
  if (typeof text !== "string" || text.length !== textLength) return false
  try {
    const bytes = base58check.decode(text)
    return bytes.length === byteLength && bytes[0] === prefix
  } catch {
    return false
  }
}

/** A string that is a valid TRON Base58Check address (see `isValidTronAddress`). */
export const TronAddress = Schema.String.pipe(
  Schema.filter(isValidTronAddress, { message: () => "must be a TRON Base58Check address" }),
  Schema.annotations({ identifier: "TronAddress", description: "a TRON Base58Check address (34 characters, starting with T)" })
)
export type TronAddress = typeof TronAddress.Type

/** Base58Check of the 21 address bytes (0x41 || 20-byte account id). */
const encode = (bytes21: Uint8Array): string => base58check.encode(bytes21)

/**
 * The address of an uncompressed secp256k1 public key (65 bytes, starting 04). Compressed keys
 * are rejected rather than silently hashed: hashing the wrong encoding yields a valid-looking
 * address that no key controls, and funds sent there are lost.
 */
export const fromPublicKey = (publicKey: Uint8Array): string => {
  if (publicKey.length !== 65 || publicKey[0] !== 0x04) {
    throw new RangeError(`expected a 65-byte uncompressed secp256k1 public key, got ${publicKey.length} bytes`)
  }
  const hash = keccak_256(publicKey.subarray(1))
  const bytes = new Uint8Array(byteLength)
  bytes[0] = prefix
  bytes.set(hash.subarray(hash.length - 20), 1)
  return encode(bytes)
}

/** The address controlled by a 32-byte secp256k1 secret key; throws if the key is not valid. */
export const fromSecretKey = (secretKey: Uint8Array): string => fromPublicKey(secp256k1.getPublicKey(secretKey, false))

/** The 21-byte hex form (`41…`, 42 lower-case characters) the node API uses without `visible`. */
export const toHex = (address: string): Option.Option<string> =>
  isValidTronAddress(address) ? Option.some(bytesToHex(base58check.decode(address))) : Option.none()

const hexPattern = /^[0-9a-fA-F]*$/

/**
 * The Base58Check address of a hex address: either the node's 21-byte form (`41` + 40 hex) or
 * the bare 20-byte form (40 hex) found in TRC20 log `address` fields and the last 20 bytes of
 * Transfer topics, to which the 0x41 prefix is added. Anything else is None, so a malformed
 * node reply is never turned into an address.
 */
export const fromHex = (hex: string): Option.Option<string> => {
  if (typeof hex !== "string" || !hexPattern.test(hex)) return Option.none()
  if (hex.length === 40) return Option.some(encodeHex41(`41${hex}`))
  if (hex.length === 42 && hex.slice(0, 2) === "41") return Option.some(encodeHex41(hex))
  return Option.none()
}

// Base58Check costs two SHA-256 and a quadratic base conversion per address, and a block's
// Transfer logs repeat the same addresses (exchanges, hot wallets): a bounded memo of this pure
// mapping. Dropped whole when full, so memory stays bounded.
const memo = new Map<string, string>()
const memoLimit = 50_000

const encodeHex41 = (hex41: string): string => {
  const key = hex41.toLowerCase()
  const known = memo.get(key)
  if (known !== undefined) return known
  const address = encode(hexToBytes(key))
  if (memo.size >= memoLimit) memo.clear()
  memo.set(key, address)
  return address
}
