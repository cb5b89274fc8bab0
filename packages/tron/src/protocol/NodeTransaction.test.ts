import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { bytesToHex } from "@noble/hashes/utils.js"
import { Either } from "effect"
import { utils as tronweb } from "tronweb"
import * as NodeTransaction from "./NodeTransaction.js"
import * as TransactionId from "./TransactionId.js"
import type * as TransactionRaw from "./TransactionRaw.js"

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../test-fixtures/tron/${name}`, import.meta.url), "utf8"))

/** Builder responses as the nodes sent them: visible, txID, raw_data, raw_data_hex. */
const responses: ReadonlyArray<readonly [string, NodeTransaction.NodeTransaction]> = [
  ["shasta triggersmartcontract (visible)", fixture("shasta_triggersmartcontract_trc20_transfer.response.json").transaction],
  ["shasta createtransaction (visible)", fixture("shasta_createtransaction_trx.response.json")],
  ["nile triggersmartcontract (hex)", fixture("nile_triggersmartcontract_transfer.response.json").transaction],
  ["nile triggerconstantcontract (hex)", fixture("nile_triggerconstantcontract_balanceOf.response.json").transaction]
]

const reasonOf = (result: Either.Either<unknown, { readonly reason: string }>) => (Either.isLeft(result) ? result.left.reason : "accepted")

describe("NodeTransaction", () => {
  describe.each(responses)("%s", (_, response) => {
    it("verifies, returning the bytes to sign", () => {
      const bytes = Either.getOrThrow(NodeTransaction.verify(response))
      expect(bytesToHex(bytes)).toBe(response.raw_data_hex)
      expect(TransactionId.compute(bytes)).toBe(response.txID)
    })

    it("is what a simulated node would answer for the same raw_data", () => {
      const rebuilt = Either.getOrThrow(NodeTransaction.fromRawData(response.raw_data, { visible: response.visible }))
      expect(rebuilt).toEqual({ visible: response.visible, txID: response.txID, raw_data: response.raw_data, raw_data_hex: response.raw_data_hex })
    })
  })

  describe("verify catches a node whose JSON and bytes disagree", () => {
    const response: NodeTransaction.NodeTransaction = fixture("shasta_triggersmartcontract_trc20_transfer.response.json").transaction
    const contract = response.raw_data.contract[0] as Extract<TransactionRaw.Contract, { type: "TriggerSmartContract" }>
    const withValue = (value: Partial<TransactionRaw.TriggerSmartContract>): NodeTransaction.NodeTransaction => ({
      ...response,
      raw_data: { ...response.raw_data, contract: [{ ...contract, parameter: { ...contract.parameter, value: { ...contract.parameter.value, ...value } } }] }
    })

    it.each([
      // The JSON shows a 1 USDT transfer to the expected recipient; the bytes are unchanged.
      ["another recipient in the JSON", withValue({ data: contract.parameter.value.data!.replace("f928b8f3", "f928b8f4") }), "raw_data_hex is not the encoding"],
      ["another fee_limit in the JSON", { ...response, raw_data: { ...response.raw_data, fee_limit: 1 } }, "raw_data_hex is not the encoding"],
      ["a call_value in the JSON", withValue({ call_value: 1 }), "raw_data_hex is not the encoding"],
      ["another token contract in the JSON", withValue({ contract_address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }), "raw_data_hex is not the encoding"],
      ["a txID that is not the hash", { ...response, txID: response.txID.replace(/^9/, "8") }, "is not the SHA-256 of raw_data_hex"],
      ["raw_data_hex that is not hex", { ...response, raw_data_hex: response.raw_data_hex + "z" }, "raw_data_hex must be an even-length hex string"]
    ])("%s", (_, tampered, reason) => {
      expect(reasonOf(NodeTransaction.verify(tampered))).toContain(reason)
      // tronweb agrees these are not acceptable (it cannot parse the non-hex one at all).
      if (!reason.startsWith("raw_data_hex must")) expect(tronweb.transaction.txCheck(tampered)).toBe(false)
    })

    it("accepts an upper-case txID", () => {
      expect(Either.isRight(NodeTransaction.verify({ ...response, txID: response.txID.toUpperCase() }))).toBe(true)
    })
  })

  describe("fromRawData", () => {
    const owner = "TEZQQ5BXq3nFKUFJknoV15CW24twzH81La"
    const receiver = "TYge3Gid6vVaQvnPVRJ6SVwzC64cw2eBkN"
    const delegate: TransactionRaw.RawData = {
      contract: [{
        type: "DelegateResourceContract",
        parameter: {
          // Explicit defaults, as a simulated node's code might write them.
          value: { owner_address: owner, receiver_address: receiver, resource: "ENERGY", balance: 5_000_000, lock: false, lock_period: 0 },
          type_url: "type.googleapis.com/protocol.DelegateResourceContract"
        },
        Permission_id: 0
      }],
      ref_block_bytes: "ab6d",
      ref_block_hash: "5d89dbd9f999d854",
      expiration: 1717760277000,
      timestamp: 1717760217613
    }

    it.each([true, false])("serves java-tron's canonical JSON (visible = %s) that tronweb accepts", (visible) => {
      const served = Either.getOrThrow(NodeTransaction.fromRawData(delegate, { visible }))
      const value = served.raw_data.contract[0]!.parameter.value
      expect(value).toEqual(
        visible
          ? { owner_address: owner, receiver_address: receiver, resource: "ENERGY", balance: 5_000_000 }
          : { owner_address: "41325828ce56c69e0e6be7c3da62ba0c60992b547e", receiver_address: "41f928b8f3ffb2763e11442cd26ef37b89a7f396f3", resource: "ENERGY", balance: 5_000_000 }
      )
      expect(served.raw_data.contract[0]).not.toHaveProperty("Permission_id")
      expect(tronweb.transaction.txCheck(served)).toBe(true)
      expect(Either.isRight(NodeTransaction.verify(served))).toBe(true)
    })

    it("refuses raw_data it cannot encode", () => {
      expect(reasonOf(NodeTransaction.fromRawData({ ...delegate, ref_block_bytes: "ab" }, { visible: true }))).toContain("ref_block_bytes")
    })
  })
})
