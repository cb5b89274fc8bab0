import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import { Either, Option } from "effect"
import * as Trc20Call from "./Trc20Call.js"

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../test-fixtures/tron/${name}`, import.meta.url), "utf8"))

const keccakHex = (text: string) => bytesToHex(keccak_256(new TextEncoder().encode(text)))

const usdt = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"

/** What a node built: the contract value of a fixture transaction. */
const valueOf = (tx: { raw_data: { contract: ReadonlyArray<{ parameter: { value: { data: string; owner_address: string } } }> } }) =>
  tx.raw_data.contract[0]!.parameter.value

describe("Trc20Call", () => {
  it("has the selectors and the Transfer topic of the ERC-20 signatures", () => {
    expect(keccakHex("transfer(address,uint256)").slice(0, 8)).toBe(Trc20Call.transferSelector)
    expect(keccakHex("balanceOf(address)").slice(0, 8)).toBe(Trc20Call.balanceOfSelector)
    expect(keccakHex("Transfer(address,address,uint256)")).toBe(Trc20Call.transferTopic)
  })

  describe("transfer(address,uint256)", () => {
    // Recipients and amounts read off the fixtures by hand (Base58 computed independently).
    it.each([
      ["shasta, 1 USDT", fixture("shasta_triggersmartcontract_trc20_transfer.response.json").transaction, "TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkN", 1_000_000n],
      ["nile, 0.0001 USDT", fixture("nile_triggersmartcontract_transfer.response.json").transaction, "TAkMvwVV7YfEEymVSP8y5e41bckH72o75d", 100n],
      ["mainnet block 71723395, 10 USDT", fixture("mainnet_getblockbynum_71723395_abridged.json").transactions[1], "TFQTc86HEP4adPZmFsjGPzCuifx8WzeipL", 10_000_000n]
    ])("%s: encodes the node's data and decodes it back", (_, tx, to, amount) => {
      const data = valueOf(tx).data
      expect(Trc20Call.transferData(to, amount)).toEqual(Either.right(data))
      expect(Trc20Call.decodeTransfer(data)).toEqual(Option.some({ to, amount }))
      expect(Trc20Call.decodeTransfer(data.toUpperCase())).toEqual(Option.some({ to, amount }))
    })

    it("gives the `parameter` a triggersmartcontract request carries (shasta request fixture)", () => {
      const request = fixture("shasta_triggersmartcontract_trc20_transfer.request.json")
      expect(request.function_selector).toBe("transfer(address,uint256)")
      expect(Trc20Call.transferParameter("TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkN", 1_000_000n)).toEqual(Either.right(request.parameter))
    })

    it("takes the recipient in hex form too, and the full uint256 range", () => {
      const max = 2n ** 256n - 1n
      const data = Either.getOrThrow(Trc20Call.transferData("41f928b8f3ffb2763e11442cd26ef37b89a7f396f3", max))
      expect(data.slice(-64)).toBe("f".repeat(64))
      expect(Trc20Call.decodeTransfer(data)).toEqual(Option.some({ to: "TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkN", amount: max }))
    })

    it.each([
      ["a negative amount", "TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkN", -1n],
      ["an amount above uint256", "TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkN", 2n ** 256n],
      ["an invalid address", "TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkM", 1n],
      ["a bare 20-byte address", "f928b8f3ffb2763e11442cd26ef37b89a7f396f3", 1n]
    ])("refuses %s", (_, to, amount) => {
      expect(Either.isLeft(Trc20Call.transferData(to, amount))).toBe(true)
    })

    const data = valueOf(fixture("shasta_triggersmartcontract_trc20_transfer.response.json").transaction).data
    it.each([
      ["another selector", "095ea7b3" + data.slice(8)],
      ["balanceOf call data", Trc20Call.balanceOfSelector + data.slice(8, 72)],
      ["a missing word", data.slice(0, 72)],
      ["trailing bytes", data + "00"],
      ["dirty upper bytes in the address word", data.slice(0, 8) + "ff".repeat(12) + data.slice(32)],
      ["a 0x prefix", "0x" + data],
      ["non-hex", data.slice(0, -1) + "g"]
    ])("does not read %s as a transfer", (_, other) => {
      expect(Trc20Call.decodeTransfer(other)).toEqual(Option.none())
    })
  })

  describe("balanceOf(address)", () => {
    it("encodes and decodes the nile triggerconstantcontract call", () => {
      const response = fixture("nile_triggerconstantcontract_balanceOf.response.json")
      const value = valueOf(response.transaction)
      const owner = "TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp"
      expect(Trc20Call.balanceOfData(owner)).toEqual(Either.right(value.data))
      expect(Trc20Call.balanceOfData(value.owner_address)).toEqual(Either.right(value.data))
      expect(Trc20Call.decodeBalanceOf(value.data)).toEqual(Option.some({ owner }))
      expect(Trc20Call.decodeUint256(response.constant_result[0])).toEqual(Option.some(1_087_360_000n))
    })

    it("reads the 41-prefixed address word some callers send, but never writes one", () => {
      const response = fixture("mainnet_triggerconstantcontract_usdt_balanceOf_2022.response.json")
      const value = valueOf(response.transaction)
      const owner = "TUz5DVNk16pHav1sBxPp8eU58JtBHobZM9"
      expect(value.data.slice(8, 32)).toBe("0000000000000000000000" + "41")
      expect(Trc20Call.decodeBalanceOf(value.data)).toEqual(Option.some({ owner }))
      expect(Trc20Call.balanceOfData(owner)).toEqual(Either.right(value.data.slice(0, 30) + "00" + value.data.slice(32)))
      expect(Trc20Call.decodeUint256(response.constant_result[0])).toEqual(Option.some(69_052_336_071n))
    })

    it.each([["31 bytes", "00".repeat(31)], ["33 bytes", "00".repeat(33)], ["non-hex", "zz".repeat(32)]])("decodeUint256 refuses %s", (_, word) => {
      expect(Trc20Call.decodeUint256(word)).toEqual(Option.none())
    })
  })

  describe("Transfer logs", () => {
    const receipts: ReadonlyArray<{ id: string; receipt: { result?: string }; log?: ReadonlyArray<Trc20Call.Log> }> = [
      ...fixture("mainnet_gettransactioninfobyblocknum_84940364_partial.json"),
      fixture("mainnet_gettransactioninfobyid_usdt_transfer_b69c51db.json")
    ]

    it("decodes every USDT Transfer in the receipts (amounts and addresses read off independently)", () => {
      const transfers = receipts.flatMap((info) =>
        (info.log ?? []).map((log) => ({ id: info.id.slice(0, 8), result: info.receipt.result, transfer: Trc20Call.decodeTransferLog(log) }))
      )
      expect(transfers).toEqual([
        { id: "f52df87d", result: "SUCCESS", transfer: Option.some({ contract: usdt, from: "TWrCqzeJMWvfEGyGVrRPTTERkWQLSgmMoY", to: "TBa4Nb96tj4jUx85tcqvyWYyFi7mowHVLJ", amount: 500_000_000n }) },
        { id: "e3249346", result: "SUCCESS", transfer: Option.some({ contract: usdt, from: "TUsiiA8jqAEagjV78T1NvjQjLbME5pWCMA", to: "TQMXevvCisESgK479N4mG8TTkps1LCNiyb", amount: 23_111_110_000n }) },
        { id: "fa59d11e", result: "SUCCESS", transfer: Option.some({ contract: usdt, from: "TY2p6ZaZvc1vbniAUndjCwDsBSD7HngE2h", to: "TJwzFM5gyU15uqWNeqGfyX7jEdvabNph7t", amount: 270_550_000n }) },
        { id: "90e42a06", result: "SUCCESS", transfer: Option.some({ contract: usdt, from: "TXFQoyP3ZnsbygNzeyfcJLrUveX5jp7vzQ", to: "TD7kfvnJnXYkxEgcPgPzmxXVMqACJP1Tja", amount: 20_000_000n }) },
        { id: "b69c51db", result: "SUCCESS", transfer: Option.some({ contract: usdt, from: "TJoaVSdktrnndU4dmKm33SWMKoXt4LLFbU", to: "TUikLT3nTTjTkXPAuC4xUGj84vfSERCWRn", amount: 3_500_000n }) }
      ])
    })

    const log = fixture("mainnet_gettransactioninfobyid_usdt_transfer_b69c51db.json").log[0] as Trc20Call.Log
    it.each([
      ["an ERC-721 style log (four topics)", { ...log, topics: [...log.topics, "00".repeat(32)] }],
      ["another event (Approval)", { ...log, topics: [keccakHex("Approval(address,address,uint256)"), log.topics[1]!, log.topics[2]!] }],
      ["a 41-prefixed (dirty) address topic", { ...log, topics: [log.topics[0]!, "00".repeat(11) + "41" + log.topics[1]!.slice(24), log.topics[2]!] }],
      ["a short topic", { ...log, topics: [log.topics[0]!, log.topics[1]!.slice(2), log.topics[2]!] }],
      ["data that is not one word", { ...log, data: log.data + "00" }],
      ["no data", { address: log.address, topics: log.topics }],
      ["a malformed contract address", { ...log, address: log.address.slice(2) }]
    ])("does not read %s as a Transfer", (_, other) => {
      expect(Trc20Call.decodeTransferLog(other)).toEqual(Option.none())
    })

    it("names the emitting contract so callers can ignore other tokens' Transfers", () => {
      const other = Trc20Call.decodeTransferLog({ ...log, address: "eca9bc828a3005b9a3b909f2cc5c2a54794de05f" })
      expect(Option.map(other, (t) => t.contract)).toEqual(Option.some("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"))
    })
  })
})
