import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { Option } from "effect"
import * as TronAddress from "./TronAddress.js"
import * as TronSignature from "./TronSignature.js"

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../test-fixtures/tron/${name}`, import.meta.url), "utf8"))

interface FixtureTx {
  readonly txID: string
  readonly raw_data_hex: string
  readonly signature: ReadonlyArray<string>
  readonly raw_data: { readonly contract: ReadonlyArray<{ readonly parameter: { readonly value: { readonly owner_address: string } } }> }
}

/** The owner in either form the fixtures use: Base58 (visible=true) or 41-hex. */
const ownerOf = (tx: FixtureTx): string => {
  const owner = tx.raw_data.contract[0]!.parameter.value.owner_address
  return TronAddress.isValidTronAddress(owner) ? owner : Option.getOrThrow(TronAddress.fromHex(owner))
}

const shastaTx: FixtureTx = fixture("shasta_broadcasttransaction_trc20_transfer.request.json")
const mainnetTxs: ReadonlyArray<FixtureTx> = fixture("mainnet_getblockbynum_71723395_abridged.json").transactions

const vectors: { private_key_to_address: ReadonlyArray<{ private_key: string; base58: string }> } = fixture("test-vectors.json")

describe("TronSignature", () => {
  describe.each([
    ["shasta TRC20 transfer (v = 0x01)", shastaTx],
    ["mainnet TRX transfer (v = 0x00)", mainnetTxs[0]!],
    ["mainnet USDT transfer (v = 0x1b, tronweb style)", mainnetTxs[1]!]
  ])("real signed transaction: %s", (_, tx) => {
    it("recovers to its owner_address", () => {
      // The fixture is what it claims: txID is sha256 of the raw protobuf.
      expect(bytesToHex(sha256(hexToBytes(tx.raw_data_hex)))).toBe(tx.txID)
      const signature = hexToBytes(tx.signature[0]!)
      expect(signature.length).toBe(65)
      expect(TronSignature.recoverAddress(hexToBytes(tx.txID), signature)).toEqual(Option.some(ownerOf(tx)))
    })

    it("recovers to someone else when v is flipped", () => {
      const signature = hexToBytes(tx.signature[0]!)
      signature[64] = ({ 0: 1, 1: 0, 27: 28, 28: 27 } as Record<number, number>)[signature[64]!]!
      const other = TronSignature.recoverAddress(hexToBytes(tx.txID), signature)
      expect(Option.isSome(other) && other.value !== ownerOf(tx)).toBe(true)
    })
  })

  it("accepts both v conventions (0/1 and 27/28) on input", () => {
    const hash = hexToBytes(shastaTx.txID)
    const signature = hexToBytes(shastaTx.signature[0]!)
    const plus27 = Uint8Array.from(signature)
    plus27[64] = signature[64]! + 27
    expect(TronSignature.recoverAddress(hash, plus27)).toEqual(Option.some(ownerOf(shastaTx)))
  })

  it.each([2, 3, 26, 29, 255])("rejects v = %i", (v) => {
    const signature = hexToBytes(shastaTx.signature[0]!)
    signature[64] = v
    expect(TronSignature.recoverAddress(hexToBytes(shastaTx.txID), signature)).toEqual(Option.none())
  })

  it("rejects malformed input instead of throwing", () => {
    const hash = hexToBytes(shastaTx.txID)
    const signature = hexToBytes(shastaTx.signature[0]!)
    expect(TronSignature.recoverAddress(hash, signature.subarray(0, 64))).toEqual(Option.none())
    expect(TronSignature.recoverAddress(hash.subarray(0, 31), signature)).toEqual(Option.none())
    // r = 0 and r = s = 0xff…ff are out of range.
    expect(TronSignature.recoverAddress(hash, new Uint8Array(65))).toEqual(Option.none())
    expect(TronSignature.recoverAddress(hash, new Uint8Array(65).fill(0xff).fill(0, 64))).toEqual(Option.none())
  })

  describe.each(vectors.private_key_to_address)("signing with key $private_key", (v) => {
    const secretKey = hexToBytes(v.private_key)
    const hash = sha256(new TextEncoder().encode(`tx for ${v.base58}`))

    it("makes a deterministic, low-s r || s || v signature that recovers to the key's address", () => {
      const signature = TronSignature.sign(secretKey, hash)
      expect(signature.length).toBe(65)
      expect([0, 1]).toContain(signature[64])
      expect(TronSignature.sign(secretKey, hash)).toEqual(signature)
      const s = BigInt("0x" + bytesToHex(signature.subarray(32, 64)))
      expect(s <= secp256k1.Point.CURVE().n / 2n).toBe(true)
      expect(secp256k1.verify(signature.subarray(0, 64), hash, secp256k1.getPublicKey(secretKey), { prehash: false })).toBe(true)
      expect(TronSignature.recoverAddress(hash, signature)).toEqual(Option.some(v.base58))
    })
  })

  it("signs the hash itself, not sha256 of it", () => {
    const secretKey = hexToBytes(vectors.private_key_to_address[1]!.private_key)
    const hash = sha256(Uint8Array.of(1, 2, 3))
    const signature = TronSignature.sign(secretKey, hash)
    expect(secp256k1.verify(signature.subarray(0, 64), sha256(hash), secp256k1.getPublicKey(secretKey), { prehash: false })).toBe(false)
  })

  it("refuses a hash that is not 32 bytes", () => {
    const secretKey = hexToBytes(vectors.private_key_to_address[0]!.private_key)
    expect(() => TronSignature.sign(secretKey, new Uint8Array(31))).toThrow(RangeError)
    expect(() => TronSignature.sign(secretKey, new Uint8Array(33))).toThrow(RangeError)
  })
})
