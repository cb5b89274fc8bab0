import { secp256k1 } from "@noble/curves/secp256k1.js"

const order = secp256k1.Point.CURVE().n

/**
 * Turns a token's CKM_ECDSA output (r || s, 64 bytes, no recovery id and any S) into TRON's
 * 65-byte r || s || v as the local signer makes it: S in the low half (nodes and tronweb accept
 * only that form) and v the recovery id (0 or 1) that recovers `publicKey`, found by trying both.
 * Undefined when neither recovers it: the token signed with another key, or the bytes are not a
 * signature over `hash`.
 */
export const fromTokenSignature = (raw: Uint8Array, hash: Uint8Array, publicKey: Uint8Array): Uint8Array | undefined => {
  if (raw.length !== 64 || hash.length !== 32) return undefined
  let signature
  try {
    signature = secp256k1.Signature.fromBytes(raw, "compact")
  } catch {
    return undefined
  }
  // Negating S gives the other valid signature of the same hash; the low one is canonical.
  const low = signature.hasHighS() ? new secp256k1.Signature(signature.r, order - signature.s) : signature
  const expected = secp256k1.Point.fromBytes(publicKey)
  for (const recovery of [0, 1]) {
    let recovered
    try {
      recovered = low.addRecoveryBit(recovery).recoverPublicKey(hash)
    } catch {
      continue
    }
    if (recovered.equals(expected)) {
      const out = new Uint8Array(65)
      out.set(low.toBytes("compact"), 0)
      out[64] = recovery
      return out
    }
  }
  return undefined
}
