import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { readFields } from "./ProtobufFields"
import { fixture } from "./testing/FakeNode"
import { readTriggerCall, signedTransactionHex, txidOf } from "./TransactionBytes"

const nileBuilt = fixture("nile_triggersmartcontract_transfer.response.json").transaction
const shastaSigned = fixture("shasta_broadcasttransaction_trc20_transfer.request.json")
const trxTransfer = fixture("mainnet_getblockbynum_71723395_abridged.json").transactions[0]

describe("TransactionBytes", () => {
  it("hashes raw_data to the txID the node reported", () => {
    expect(txidOf(nileBuilt.raw_data_hex)).toBe(nileBuilt.txID)
    expect(txidOf(shastaSigned.raw_data_hex)).toBe(shastaSigned.txID)
  })

  it("reads a node-built USDT transfer from its raw_data bytes", () => {
    expect(readTriggerCall(nileBuilt.raw_data_hex)).toEqual(Option.some({
      owner: "41dd791d6b49e190062d650e6a23c575510d35f2f9",
      contract: "41eca9bc828a3005b9a3b909f2cc5c2a54794de05f",
      data: nileBuilt.raw_data.contract[0].parameter.value.data,
      callValue: 0n,
      tokenValue: 0n,
      expiration: 1777447227000n,
      feeLimit: 100000000n
    }))
  })

  it("reads nothing from a transaction that is not a TriggerSmartContract, or from garbage", () => {
    expect(readTriggerCall(trxTransfer.raw_data_hex)).toEqual(Option.none())
    expect(readTriggerCall(nileBuilt.raw_data_hex.slice(0, 40))).toEqual(Option.none())
    expect(readTriggerCall("ff")).toEqual(Option.none())
  })

  it("encodes the signed Transaction as raw_data (field 1) and each signature (field 2)", () => {
    const hex = signedTransactionHex(shastaSigned.raw_data_hex, shastaSigned.signature)
    const fields = Option.getOrThrow(readFields(Buffer.from(hex, "hex")))
    expect(fields.map((f) => f.number)).toEqual([1, 2])
    expect(Buffer.from(fields[0]!.bytes!).toString("hex")).toBe(shastaSigned.raw_data_hex)
    expect(Buffer.from(fields[1]!.bytes!).toString("hex")).toBe(shastaSigned.signature[0])
    // raw_data is 212 bytes: its length takes a two-byte varint (0xd4 0x01).
    expect(hex.startsWith("0ad401")).toBe(true)
  })
})
