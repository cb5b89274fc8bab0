import { Protobuf } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import { signedTransactionHex } from "./SignedTransaction.js"
import { fixture } from "./testing/FakeNode.js"

const shastaSigned = fixture("shasta_broadcasttransaction_trc20_transfer.request.json")

const fieldsOf = (hex: string) => Either.getOrThrow(Protobuf.readFields(Buffer.from(hex, "hex")))
const hexOf = (value: Uint8Array | bigint) => Buffer.from(value as Uint8Array).toString("hex")

describe("signedTransactionHex", () => {
  it("encodes the signed Transaction as raw_data (field 1) and each signature (field 2)", () => {
    const hex = Option.getOrThrow(signedTransactionHex(shastaSigned.raw_data_hex, shastaSigned.signature))
    const fields = fieldsOf(hex)
    expect(fields.map((f) => [f.field, f.wireType])).toEqual([[1, 2], [2, 2]])
    expect(hexOf(fields[0]!.value)).toBe(shastaSigned.raw_data_hex)
    expect(hexOf(fields[1]!.value)).toBe(shastaSigned.signature[0])
    // raw_data is 212 bytes: its length takes a two-byte varint (0xd4 0x01).
    expect(hex.startsWith("0ad401")).toBe(true)
  })

  it("passes raw_data through byte for byte, prints lower case and writes every signature", () => {
    const hex = Option.getOrThrow(signedTransactionHex("0A0B", ["AA", "", "bb"]))
    expect(hex).toBe("0a020a0b" + "1201aa" + "1200" + "1201bb")
    expect(signedTransactionHex("", [])).toEqual(Option.some("0a00"))
  })

  it("refuses hex that Buffer would silently truncate", () => {
    expect(signedTransactionHex("0a0", [])).toEqual(Option.none())
    expect(signedTransactionHex("0a0b", ["zz"])).toEqual(Option.none())
    expect(signedTransactionHex("0x0a", [])).toEqual(Option.none())
  })
})
