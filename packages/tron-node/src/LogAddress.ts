import { createBase58check } from "@scure/base"
import { hash } from "node:crypto"

/**
 * The Base58Check address of a 20-byte account id as Transfer logs carry it (40 hex digits, no
 * 0x41): the same encoding as TronAddress.fromHex (a test holds them equal), made cheap because
 * a mainnet block brings about 300 such addresses. Two things make it cheap: the checksum's
 * SHA-256 is node's (OpenSSL, several times faster here than the pure-JS one), still through
 * @scure/base's Base58Check; and a bounded memo, since exchanges and hot wallets recur.
 */

const base58check = createBase58check((data: Uint8Array) => new Uint8Array(hash("sha256", data, "buffer")))

const memo = new Map<string, string>()
/** Dropped whole when full: memory stays bounded and a hit costs one Map lookup. */
const memoLimit = 50_000

/** The address of 40 hex digits (either case); undefined for anything else. */
export const logAddress = (hex20: string): string | undefined => {
  const known = memo.get(hex20)
  if (known !== undefined) return known
  if (hex20.length !== 40) return undefined
  const bytes = Buffer.allocUnsafe(21)
  bytes[0] = 0x41
  // Buffer.write stops at the first pair that is not hex: fewer than 20 bytes means not an id.
  if (bytes.write(hex20, 1, "hex") !== 20) return undefined
  const address = base58check.encode(bytes)
  if (memo.size >= memoLimit) memo.clear()
  memo.set(hex20, address)
  return address
}
