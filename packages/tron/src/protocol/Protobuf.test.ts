import { describe, expect, it } from "@effect/vitest"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { Either, FastCheck as fc } from "effect"
import * as Protobuf from "./Protobuf.js"

const varintHex = (value: bigint) => bytesToHex(new Protobuf.Writer().varint(value).finish())

const fieldsOf = (hex: string) => Either.getOrThrow(Protobuf.readFields(hexToBytes(hex)))
const reasonOf = (hex: string) => {
  const result = Protobuf.readFields(hexToBytes(hex))
  return Either.isLeft(result) ? result.left.reason : "accepted"
}

describe("Protobuf", () => {
  describe("Writer", () => {
    it.each([
      [0n, "00"],
      [1n, "01"],
      [127n, "7f"],
      [128n, "8001"],
      [300n, "ac02"],
      // 1 TRX in SUN and a 2024 millisecond timestamp, as in the fixtures (18c0843d / 40…).
      [1_000_000n, "c0843d"],
      [1717760277000n, "88f4f693ff31"],
      [2n ** 53n - 1n, "ffffffffffffff0f"],
      [2n ** 63n - 1n, "ffffffffffffffff7f"],
      // Negative values are their 64-bit two's complement: always ten bytes.
      [-1n, "ffffffffffffffffff01"],
      [-(2n ** 63n), "80808080808080808001"]
    ])("varint %s -> %s", (value, hex) => {
      expect(varintHex(value)).toBe(hex)
    })

    it("omits proto3 defaults and writes everything else in call order", () => {
      const bytes = new Protobuf.Writer()
        .int64(1, 0n)
        .int32(2, 0)
        .bool(3, false)
        .bytes(4, new Uint8Array(0))
        .string(5, "")
        .int64(8, 150n)
        .bool(9, true)
        .bytes(10, hexToBytes("abcd"))
        .string(11, "hi")
        .int32(12, -1)
        .finish()
      expect(bytesToHex(bytes)).toBe("40960148015202abcd5a02686960ffffffffffffffffff01")
    })

    it("writes an embedded message even when it is empty (presence, not a default)", () => {
      expect(bytesToHex(new Protobuf.Writer().message(2, new Uint8Array(0)).finish())).toBe("1200")
    })

    it("encodes multi-byte field numbers and long length prefixes", () => {
      const payload = new Uint8Array(300).fill(7)
      const bytes = new Protobuf.Writer().bytes(18, payload).finish()
      // Field 18, wire type 2 -> key 146 (9201); length 300 (ac02).
      expect(bytesToHex(bytes.subarray(0, 4))).toBe("9201ac02")
      expect(bytes.length).toBe(304)
    })

    it("refuses values outside their type instead of wrapping them", () => {
      expect(() => new Protobuf.Writer().int64(1, 2n ** 63n)).toThrow(RangeError)
      expect(() => new Protobuf.Writer().int32(1, 2 ** 31)).toThrow(RangeError)
      expect(() => new Protobuf.Writer().int32(1, 1.5)).toThrow(RangeError)
      expect(() => new Protobuf.Writer().tag(0, Protobuf.WireType.Varint)).toThrow(RangeError)
    })
  })

  describe("readFields", () => {
    it("reads varint, length-delimited and fixed fields in wire order", () => {
      expect(fieldsOf("089601" + "1203616263" + "1d01020304" + "210102030405060708")).toEqual([
        { field: 1, wireType: 0, value: 150n },
        { field: 2, wireType: 2, value: hexToBytes("616263") },
        { field: 3, wireType: 5, value: hexToBytes("01020304") },
        { field: 4, wireType: 1, value: hexToBytes("0102030405060708") }
      ])
    })

    it("reads the widest varint and keeps it as 64 raw bits", () => {
      const [field] = fieldsOf("08ffffffffffffffffff01")
      expect(field!.value).toBe(2n ** 64n - 1n)
      expect(Protobuf.int64(field!.value as bigint)).toBe(-1n)
      expect(Protobuf.int32(field!.value as bigint)).toBe(-1)
    })

    it.each([
      ["a truncated varint", "0896", "truncated varint"],
      ["a varint above 64 bits", "08ffffffffffffffffff02", "exceeds 64 bits"],
      ["an eleven-byte varint", "088080808080808080808001", "exceeds 64 bits"],
      ["a length past the end", "1205616263", "runs past the end"],
      ["a truncated fixed32", "1d0102", "truncated fixed32"],
      ["field number 0", "0001", "invalid field number 0"],
      ["a group (wire type 3)", "0b", "unsupported wire type 3"]
    ])("refuses %s", (_, hex, reason) => {
      expect(reasonOf(hex)).toContain(reason)
    })

    it("reads back whatever the writer wrote (random fields)", () => {
      const field = fc.integer({ min: 1, max: 2 ** 29 - 1 })
      const entry = fc.oneof(
        fc.record({ field, kind: fc.constant("int64" as const), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) }),
        fc.record({ field, kind: fc.constant("bytes" as const), value: fc.uint8Array({ maxLength: 200 }) })
      )
      fc.assert(
        fc.property(fc.array(entry, { maxLength: 12 }), (entries) => {
          const writer = new Protobuf.Writer()
          for (const e of entries) e.kind === "int64" ? writer.int64(e.field, e.value) : writer.bytes(e.field, e.value)
          const expected = entries
            .filter((e) => (e.kind === "int64" ? e.value !== 0n : e.value.length > 0))
            .map((e) =>
              e.kind === "int64"
                ? { field: e.field, wireType: 0, value: BigInt.asUintN(64, e.value) }
                : { field: e.field, wireType: 2, value: e.value }
            )
          expect(Either.getOrThrow(Protobuf.readFields(writer.finish()))).toEqual(expected)
        }),
        { numRuns: 300 }
      )
    })
  })

  describe("readMessage", () => {
    const schema: Protobuf.Schema = { 1: { kind: "varint" }, 2: { kind: "bytes" }, 3: { kind: "bytes", repeated: true } }
    const read = (hex: string) => Protobuf.readMessage(hexToBytes(hex), schema, "Test")

    it("gives defaults for absent fields and every occurrence of a repeated one", () => {
      const message = Either.getOrThrow(read("1a01aa1a01bb"))
      expect(message.varint(1)).toBe(0n)
      expect(message.has(1)).toBe(false)
      expect(message.bytes(2)).toEqual(new Uint8Array(0))
      expect(message.repeated(3)).toEqual([hexToBytes("aa"), hexToBytes("bb")])
    })

    it.each([
      ["an unknown field", "2001", "unexpected field 4"],
      ["a field with the wrong wire type", "0a0101", "field 1 has wire type 2, expected 0"],
      ["a singular varint twice", "08010802", "field 1 appears twice"],
      ["a singular bytes field twice", "1201aa1201bb", "field 2 appears twice"]
    ])("refuses %s", (_, hex, reason) => {
      const result = read(hex)
      expect(Either.isLeft(result) && result.left.reason).toBe(`Test: ${reason}`)
    })
  })
})
