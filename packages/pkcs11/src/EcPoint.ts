import { secp256k1 } from "@noble/curves/secp256k1.js"

/** DER of the secp256k1 curve's OID 1.3.132.0.10, the CKA_EC_PARAMS of every key we generate. */
export const secp256k1Params = Uint8Array.from([0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a])

/**
 * The 65-byte uncompressed public key in a CKA_EC_POINT value, checked to be on the curve, or
 * undefined. PKCS#11 says the value is a DER OCTET STRING (04 41 04 X Y); some modules return
 * the bare point (04 X Y), so both are read.
 */
export const uncompressedPoint = (value: Uint8Array): Uint8Array | undefined => {
  const point = value.length === 67 && value[0] === 0x04 && value[1] === 0x41 ? value.subarray(2) : value
  if (point.length !== 65 || point[0] !== 0x04) return undefined
  try {
    return secp256k1.Point.fromBytes(point).toBytes(false)
  } catch {
    return undefined
  }
}
