import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Option } from "effect"
import * as TronAddress from "./TronAddress.js"

/**
 * TRON's transaction signature: 65 bytes r || s || v over the 32-byte txID, where v is the
 * public-key recovery id. Nodes recover the signer from it instead of receiving a public key,
 * so v must be right or the node answers SIGERROR. Emitters disagree on v: java-tron and
 * Python clients use 0/1, tronweb adds 27 (Ethereum style), and java-tron accepts both.
 */

export const length = 65
const hashLength = 32

/**
 * Signs a 32-byte hash: deterministic (RFC 6979, so no signing-time randomness can leak the key)
 * and low-s (noble's default, the canonical form). Returns r || s || v with v = 0 or 1.
 * Throws on a wrong-length hash or an invalid key; callers turn that into their own error.
 */
export const sign = (secretKey: Uint8Array, hash: Uint8Array): Uint8Array => {
  if (hash.length !== hashLength) throw new RangeError(`expected a ${hashLength}-byte hash, got ${hash.length} bytes`)
  // prehash: false — the txID is already the sha256 digest; noble v2 would hash it again by default.
  const recovered = secp256k1.sign(hash, secretKey, { prehash: false, lowS: true, format: "recovered" })
  // noble's "recovered" layout is recovery || r || s; TRON wants r || s || v.
  const recovery = recovered[0]!
  if (recovery > 1) {
    // Ids 2 and 3 need r >= n (probability ~2^-127); no TRON client emits them, so refuse.
    throw new RangeError("signature has a recovery id above 1")
  }
  const signature = new Uint8Array(length)
  signature.set(recovered.subarray(1), 0)
  signature[64] = recovery
  return signature
}

/** The recovery id (0 or 1) of a v byte in either convention (0/1 or 27/28); None otherwise. */
const recoveryOf = (v: number): Option.Option<number> =>
  v === 0 || v === 1 ? Option.some(v) : v === 27 || v === 28 ? Option.some(v - 27) : Option.none()

/**
 * The Base58Check address that produced `signature` over the 32-byte `hash`, or None when the
 * signature is malformed (wrong length, unknown v, r or s out of range). A signature that is
 * well formed but made by another key recovers to another address, so callers must compare.
 */
export const recoverAddress = (hash: Uint8Array, signature: Uint8Array): Option.Option<string> => {
  if (hash.length !== hashLength || signature.length !== length) return Option.none()
  return Option.flatMap(recoveryOf(signature[64]!), (recovery) => {
    const recovered = new Uint8Array(length)
    recovered[0] = recovery
    recovered.set(signature.subarray(0, 64), 1)
    try {
      const publicKey = secp256k1.recoverPublicKey(recovered, hash, { prehash: false })
      // recoverPublicKey returns the compressed form; the address hashes the uncompressed one.
      const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false)
      return Option.some(TronAddress.fromPublicKey(uncompressed))
    } catch {
      return Option.none()
    }
  })
}
