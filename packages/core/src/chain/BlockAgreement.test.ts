import { describe, expect, it } from "@effect/vitest"
import { blockDisagreement } from "./BlockAgreement.js"
import type { BlockTransfers } from "./ChainModel.js"

const block: BlockTransfers = {
  block: { number: 100n, hash: "a".repeat(64), parentHash: "9".repeat(64), timestamp: new Date(0) },
  transfers: [
    { txid: "1".repeat(64), logIndex: 0, from: "TFrom", to: "TTo", amount: 5_000_000n, contract: "TUsdt" },
    { txid: "2".repeat(64), logIndex: 3, from: "TFrom", to: "TOther", amount: 1n, contract: "TUsdt" }
  ]
}

describe("two nodes' readings of a block", () => {
  it("agree when block and transfers are the same, whatever object holds them", () => {
    expect(blockDisagreement(block, structuredClone(block))).toBeNull()
  })

  it("another fork: the hash differs", () => {
    expect(blockDisagreement(block, { ...block, block: { ...block.block, hash: "b".repeat(64) } })).toBe(`block hash ${"a".repeat(64)} against ${"b".repeat(64)}`)
  })

  it("the same block with a transfer left out, or with another amount", () => {
    expect(blockDisagreement(block, { ...block, transfers: block.transfers.slice(0, 1) })).toBe("2 USDT transfers against 1")
    const changed = { ...block, transfers: [block.transfers[0]!, { ...block.transfers[1]!, amount: 2n }] }
    expect(blockDisagreement(block, changed)).toBe(`transfer ${"2".repeat(64)}:3 TFrom → TOther 1 (TUsdt) against ${"2".repeat(64)}:3 TFrom → TOther 2 (TUsdt)`)
  })
})
