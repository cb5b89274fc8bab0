import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { sha256 } from "@noble/hashes/sha2.js"
import { hexToBytes } from "@noble/hashes/utils.js"
import { createBase58check } from "@scure/base"
import { Either, Option, Schema } from "effect"
import * as TronAddress from "./TronAddress.js"

interface Vectors {
  readonly private_key_to_address: ReadonlyArray<{ private_key: string; base58: string; hex: string }>
  readonly mnemonic_to_address: ReadonlyArray<{ private_key: string; address: string; path: string }>
}
const vectors: Vectors = JSON.parse(
  readFileSync(new URL("../../../test-fixtures/tron/test-vectors.json", import.meta.url), "utf8")
)

const createCheck = () => createBase58check(sha256)

const usdtMain = { base58: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", hex: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c" }
const usdtNile = { base58: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", hex: "41eca9bc828a3005b9a3b909f2cc5c2a54794de05f" }

describe("TronAddress", () => {
  it("has vectors to check", () => {
    expect(vectors.private_key_to_address.length).toBe(5)
    expect(vectors.mnemonic_to_address.length).toBe(6)
  })

  describe.each(vectors.private_key_to_address)("private key $private_key", (v) => {
    it("derives the published address and hex", () => {
      const address = TronAddress.fromSecretKey(hexToBytes(v.private_key))
      expect(address).toBe(v.base58)
      expect(TronAddress.toHex(address)).toEqual(Option.some(v.hex))
      expect(TronAddress.fromHex(v.hex)).toEqual(Option.some(v.base58))
      expect(TronAddress.isValidTronAddress(address)).toBe(true)
    })
  })

  // The mnemonic vectors also list each derived key: the key -> address half is checked here.
  describe.each(vectors.mnemonic_to_address)("key at $path", (v) => {
    it("derives the published address", () => {
      expect(TronAddress.fromSecretKey(hexToBytes(v.private_key))).toBe(v.address)
    })
  })

  it.each([usdtMain, usdtNile])("round-trips the USDT contract $base58", ({ base58, hex }) => {
    expect(TronAddress.toHex(base58)).toEqual(Option.some(hex))
    expect(TronAddress.fromHex(hex)).toEqual(Option.some(base58))
    // The 20-byte form found in Transfer log fields, without 41.
    expect(TronAddress.fromHex(hex.slice(2))).toEqual(Option.some(base58))
    // Upper-case hex is the same bytes; toHex always answers lower case.
    expect(TronAddress.fromHex(hex.toUpperCase())).toEqual(Option.some(base58))
  })

  it("takes a Transfer topic's last 20 bytes", () => {
    const topic = "000000000000000000000000a614f803b6fd780986a42c78ec9c7f77e6ded13c"
    expect(TronAddress.fromHex(topic.slice(24))).toEqual(Option.some(usdtMain.base58))
  })

  it.each([
    ["empty", ""],
    ["odd length (41 hex)", "41a614f803b6fd780986a42c78ec9c7f77e6ded13"],
    ["22 bytes", "41a614f803b6fd780986a42c78ec9c7f77e6ded13c00"],
    ["19 bytes", "a614f803b6fd780986a42c78ec9c7f77e6ded1"],
    ["42 hex not starting 41", "42a614f803b6fd780986a42c78ec9c7f77e6ded13c"],
    ["0x prefix", "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c"],
    ["non-hex character", "41a614f803b6fd780986a42c78ec9c7f77e6ded13g"],
    ["a whole 32-byte topic", "000000000000000000000000a614f803b6fd780986a42c78ec9c7f77e6ded13c"],
    ["base58", usdtMain.base58]
  ])("fromHex rejects %s", (_, hex) => {
    expect(TronAddress.fromHex(hex)).toEqual(Option.none())
  })

  it("toHex rejects an invalid address", () => {
    expect(TronAddress.toHex(usdtMain.base58.slice(0, 33) + "u")).toEqual(Option.none())
    expect(TronAddress.toHex("")).toEqual(Option.none())
  })

  describe("isValidTronAddress", () => {
    const valid = usdtMain.base58
    // Changes one character to another base58 character so only the checksum can catch it.
    const withChar = (index: number, char: string) => valid.slice(0, index) + char + valid.slice(index + 1)

    it("accepts real addresses", () => {
      for (const address of [usdtMain.base58, usdtNile.base58, ...vectors.private_key_to_address.map((v) => v.base58)]) {
        expect(TronAddress.isValidTronAddress(address)).toBe(true)
      }
    })

    it.each([
      ["a wrong checksum (last char changed)", withChar(33, valid[33] === "t" ? "u" : "t")],
      ["a typo in the body", withChar(10, valid[10] === "a" ? "b" : "a")],
      ["one char too short", valid.slice(0, 33)],
      ["one char too long", valid + "1"],
      ["non-base58 0", withChar(5, "0")],
      ["non-base58 O", withChar(5, "O")],
      ["non-base58 I", withChar(5, "I")],
      ["non-base58 l", withChar(5, "l")],
      ["a space", withChar(5, " ")],
      ["lower case", valid.toLowerCase()],
      ["upper case", valid.toUpperCase()],
      ["empty", ""],
      ["the hex form", usdtMain.hex],
      ["surrounding whitespace", ` ${valid}`.slice(0, 34)]
    ])("rejects %s", (_, text) => {
      expect(TronAddress.isValidTronAddress(text)).toBe(false)
    })

    it("rejects a valid Base58Check string whose prefix byte is not 0x41", () => {
      // Bitcoin's P2PKH version byte 0x00, and 0x42: correct checksum and 21 bytes, wrong prefix.
      const bitcoin = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"
      expect(bitcoin.length).toBe(34)
      expect(TronAddress.isValidTronAddress(bitcoin)).toBe(false)
      const base58check = createCheck()
      const other = base58check.encode(Uint8Array.from([0x42, ...hexToBytes(usdtMain.hex.slice(2))]))
      expect(other.length).toBe(34)
      expect(TronAddress.isValidTronAddress(other)).toBe(false)
    })

    it("rejects a checksummed payload of the wrong length", () => {
      const base58check = createCheck()
      // 20 bytes starting 0x41 encode to 33 chars; 22 bytes to 35 or more.
      expect(TronAddress.isValidTronAddress(base58check.encode(hexToBytes(usdtMain.hex.slice(0, 40))))).toBe(false)
      expect(TronAddress.isValidTronAddress(base58check.encode(hexToBytes(usdtMain.hex + "00")))).toBe(false)
    })

    it("never throws on non-strings", () => {
      for (const value of [undefined, null, 42, {}, []]) {
        expect(TronAddress.isValidTronAddress(value as unknown as string)).toBe(false)
      }
    })
  })

  describe("schema", () => {
    it("decodes a valid address", () => {
      expect(Schema.decodeUnknownSync(TronAddress.TronAddress)(usdtMain.base58)).toBe(usdtMain.base58)
    })

    it("rejects an invalid one with the documented message", () => {
      const result = Schema.decodeUnknownEither(TronAddress.TronAddress)(usdtMain.base58.toLowerCase())
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) expect(result.left.message).toContain("must be a TRON Base58Check address")
    })

    it("rejects a non-string", () => {
      expect(Either.isLeft(Schema.decodeUnknownEither(TronAddress.TronAddress)(42))).toBe(true)
    })
  })

  it("fromPublicKey rejects a compressed key", () => {
    expect(() => TronAddress.fromPublicKey(new Uint8Array(33).fill(2))).toThrow(RangeError)
  })
})
