import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { batchMintSelector, batchTransferSelector, decodeBatch, encodeBatch } from "./TokenBatch.js"

const a = "41" + "11".repeat(20)
const b = "41" + "22".repeat(20)
const word = (n: bigint) => n.toString(16).padStart(64, "0")

describe("TokenBatch", () => {
  it("uses the selectors of the two signatures", () => {
    // batchTransfer(address[],uint256[]) is the selector TRC20 tokens with a batch transfer carry.
    expect(batchTransferSelector).toBe("88d695b2")
    expect(batchMintSelector).toBe("68573107")
  })

  it("encodes two dynamic arrays as solc does, and reads them back", () => {
    const items = [{ to: a, amount: 1n }, { to: b, amount: (1n << 255n) + 7n }]
    const encoded = encodeBatch(items)
    // Offsets 0x40 and 0x40 + 32 * (1 + 2), then each array's length and words.
    expect(encoded).toBe(
      word(0x40n) + word(0xa0n) + word(2n) + a.slice(2).padStart(64, "0") + b.slice(2).padStart(64, "0") + word(2n) + word(1n) +
        word((1n << 255n) + 7n)
    )
    expect(decodeBatch(encoded)).toEqual(Option.some(items))
  })

  it("refuses what the contract would revert on", () => {
    const good = encodeBatch([{ to: a, amount: 1n }])
    expect(decodeBatch(good.slice(0, -64))).toEqual(Option.none())
    expect(decodeBatch(good + "00")).toEqual(Option.none())
    expect(decodeBatch(word(0x40n) + word(0x60n) + word(0n) + word(0n))).toEqual(Option.none())
    // One address, two amounts.
    expect(decodeBatch(word(0x40n) + word(0x80n) + word(1n) + a.slice(2).padStart(64, "0") + word(2n) + word(1n) + word(2n))).toEqual(
      Option.none()
    )
    // An address word with bits above its 20 bytes.
    expect(decodeBatch(word(0x40n) + word(0x80n) + word(1n) + "01" + a.slice(2).padStart(62, "0") + word(1n) + word(5n))).toEqual(Option.none())
    // A length running past the data.
    expect(decodeBatch(word(0x40n) + word(0x80n) + word(9n) + a.slice(2).padStart(64, "0") + word(1n) + word(5n))).toEqual(Option.none())
  })
})
