import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { Either, Option } from "effect"
import * as TronAddress from "../TronAddress.js"
import * as TronSignature from "../TronSignature.js"
import * as BlockHeader from "./BlockHeader.js"
import * as RefBlock from "./RefBlock.js"

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../test-fixtures/tron/${name}`, import.meta.url), "utf8"))

interface Block {
  readonly blockID: string
  readonly block_header: { readonly raw_data: BlockHeader.BlockHeaderRaw; readonly witness_signature: string }
}

const mainnet: Block = fixture("mainnet_getblockbynum_71723395_abridged.json")
const nileByNum: Block = fixture("nile_getblockbynum_66987565.header.json")
const nileNow: Block = fixture("nile_getnowblock_66987627.header.json")

const blocks: ReadonlyArray<readonly [string, Block]> = [
  ["mainnet 71723395", mainnet],
  ["nile 66987565", nileByNum],
  ["nile 66987627", nileNow]
]

const recoveredSigner = (block: Block) =>
  TronSignature.recoverAddress(Either.getOrThrow(BlockHeader.hash(block.block_header.raw_data)), hexToBytes(block.block_header.witness_signature))

describe("BlockHeader", () => {
  describe.each(blocks)("block %s", (_, block) => {
    const raw = block.block_header.raw_data

    it("has the node's blockID", () => {
      expect(BlockHeader.blockId(raw)).toEqual(Either.right(block.blockID))
    })

    it("gives the same ID with a Base58 witness address (visible = true)", () => {
      const visible = { ...raw, witness_address: Option.getOrThrow(TronAddress.fromHex(raw.witness_address!)) }
      expect(BlockHeader.blockId(visible)).toEqual(Either.right(block.blockID))
    })

    it.each([
      ["number", { number: Number(raw.number) + 1 }],
      ["timestamp", { timestamp: Number(raw.timestamp) + 3000 }],
      ["parentHash", { parentHash: "00".repeat(32) }],
      ["txTrieRoot", { txTrieRoot: "11".repeat(32) }],
      ["version", { version: 0 }],
      ["witness_address", { witness_address: "41" + "00".repeat(20) }]
    ])("changes when %s changes", (_, change) => {
      expect(Either.getOrThrow(BlockHeader.blockId({ ...raw, ...change }))).not.toBe(block.blockID)
    })

    it("starts with the block number as 8 big-endian bytes", () => {
      expect(RefBlock.blockNumber(block.blockID)).toEqual(Option.some(BigInt(raw.number!)))
    })
  })

  it("encodes fields in java-tron's order with defaults left out", () => {
    const bytes = Either.getOrThrow(BlockHeader.encode(nileByNum.block_header.raw_data))
    // timestamp(1) txTrieRoot(2) parentHash(3) number(7) witness_address(9) version(10).
    expect(bytesToHex(bytes).match(/^08.{12}1220.{64}1a20.{64}38.{8}4a15.{42}5022$/)).not.toBeNull()
    expect(Either.map(BlockHeader.encode({}), bytesToHex)).toEqual(Either.right(""))
  })

  it("is signed by the Nile witnesses over SHA-256 of the header", () => {
    for (const block of [nileByNum, nileNow]) {
      expect(recoveredSigner(block)).toEqual(TronAddress.fromHex(block.block_header.raw_data.witness_address!))
    }
  })

  it("recovers the mainnet header signature to the SR's separate witness-permission key (410aa777…)", () => {
    const signer = Option.flatMap(recoveredSigner(mainnet), TronAddress.toHex)
    expect(Option.map(signer, (hex) => hex.slice(0, 8))).toEqual(Option.some("410aa777"))
    expect(signer).not.toEqual(Option.some(mainnet.block_header.raw_data.witness_address))
  })

  it.each([
    ["an unknown field", { ...nileByNum.block_header.raw_data, nonce: "00" }, "unexpected field nonce"],
    ["a non-hex parentHash", { ...nileByNum.block_header.raw_data, parentHash: "xyz" }, "parentHash must be an even-length hex string"],
    ["a bad witness address", { ...nileByNum.block_header.raw_data, witness_address: "41b2" }, "witness_address must be a TRON address"],
    ["an unsafe number", { ...nileByNum.block_header.raw_data, number: 2 ** 53 }, "number must be an int64"],
    ["a negative number", { ...nileByNum.block_header.raw_data, number: -1 }, "must not be negative"]
  ])("refuses %s", (_, raw, reason) => {
    const result = BlockHeader.blockId(raw as BlockHeader.BlockHeaderRaw)
    expect(Either.isLeft(result) && result.left.reason).toContain(reason)
  })
})

describe("RefBlock", () => {
  it("takes bytes 6-7 of the number and bytes 8-15 of the ID", () => {
    expect(RefBlock.fromBlockId(mainnet.blockID)).toEqual(Option.some({ ref_block_bytes: "6983", ref_block_hash: "e78b77fc3879e7dd" }))
    // 66987565 = 0x03fe262d.
    expect(RefBlock.fromBlockId(nileByNum.blockID)).toEqual(Option.some({ ref_block_bytes: "262d", ref_block_hash: "52bfa4b2814f816f" }))
  })

  it.each([["short", "00".repeat(31)], ["non-hex", "zz".repeat(32)]])("refuses a %s block ID", (_, id) => {
    expect(RefBlock.fromBlockId(id)).toEqual(Option.none())
    expect(RefBlock.blockNumber(id)).toEqual(Option.none())
  })
})
