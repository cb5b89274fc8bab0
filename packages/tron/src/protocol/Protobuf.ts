import { Either } from "effect"
import { ProtocolError } from "./ProtocolError.js"

/**
 * The subset of the protobuf wire format TRON's transactions and block headers use: varints
 * (int32, int64, enum, bool) and length-delimited fields (bytes, string, embedded messages).
 * Written by hand: the only TRON-aware encoder on npm is tronweb's generated google-protobuf
 * code (reachable as `utils.transaction.txJsonToPb`), which is untyped, registers its classes
 * on a global, encodes only a transaction's first contract, cannot decode without being told
 * the contract type, and would pull axios, ethers and google-protobuf into the service. The
 * tests use tronweb as a reference instead.
 *
 * The writer follows proto3 as java-tron's generated code does, which is what makes the bytes
 * (and so the txID) match: fields in ascending field-number order, scalar fields equal to their
 * default (0, false, empty) left out, embedded messages written whenever present, varints in
 * their shortest form, negative int32/int64/enum values as ten-byte two's complement.
 */

export const WireType = { Varint: 0, Fixed64: 1, LengthDelimited: 2, Fixed32: 5 } as const
export type WireType = (typeof WireType)[keyof typeof WireType]

const maxFieldNumber = 2 ** 29 - 1
const int64Min = -(2n ** 63n)
const int64Max = 2n ** 63n - 1n
const int32Min = -(2 ** 31)
const int32Max = 2 ** 31 - 1

const checkField = (field: number): void => {
  if (!Number.isInteger(field) || field < 1 || field > maxFieldNumber) throw new RangeError(`invalid protobuf field number ${field}`)
}

/**
 * Accumulates one message. The typed methods (`int64`, `bytes`, ...) apply proto3's
 * default-omission; `tag`/`varint`/`lengthDelimited` are the raw wire primitives. Values out of
 * range for their type throw RangeError: callers validate untrusted input first, so reaching
 * one is a bug, never a silently wrong transaction.
 */
export class Writer {
  private buffer = new Uint8Array(128)
  private length = 0

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra))
    grown.set(this.buffer.subarray(0, this.length))
    this.buffer = grown
  }

  /** An unsigned varint of `value` taken as 64 bits (a negative value as its two's complement). */
  varint(value: bigint): this {
    let rest = BigInt.asUintN(64, value)
    this.reserve(10)
    while (rest >= 0x80n) {
      this.buffer[this.length++] = Number(rest & 0x7fn) | 0x80
      rest >>= 7n
    }
    this.buffer[this.length++] = Number(rest)
    return this
  }

  tag(field: number, wireType: WireType): this {
    checkField(field)
    return this.varint((BigInt(field) << 3n) | BigInt(wireType))
  }

  /** Length prefix and bytes, the body of every length-delimited field. */
  lengthDelimited(bytes: Uint8Array): this {
    this.varint(BigInt(bytes.length))
    this.reserve(bytes.length)
    this.buffer.set(bytes, this.length)
    this.length += bytes.length
    return this
  }

  /** int64 field; omitted when 0. */
  int64(field: number, value: bigint): this {
    if (value < int64Min || value > int64Max) throw new RangeError(`field ${field}: ${value} is outside int64`)
    return value === 0n ? this : this.tag(field, WireType.Varint).varint(value)
  }

  /** int32 (or enum) field; omitted when 0. Negative values are sign-extended to 64 bits, as protobuf does. */
  int32(field: number, value: number): this {
    if (!Number.isInteger(value) || value < int32Min || value > int32Max) throw new RangeError(`field ${field}: ${value} is outside int32`)
    return value === 0 ? this : this.tag(field, WireType.Varint).varint(BigInt(value))
  }

  /** bool field; omitted when false. */
  bool(field: number, value: boolean): this {
    return value ? this.tag(field, WireType.Varint).varint(1n) : this
  }

  /** bytes field; omitted when empty. */
  bytes(field: number, value: Uint8Array): this {
    return value.length === 0 ? this : this.tag(field, WireType.LengthDelimited).lengthDelimited(value)
  }

  /** string field (UTF-8); omitted when empty. */
  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value))
  }

  /** Embedded message field: written whenever present, even if its encoding is empty. */
  message(field: number, encoded: Uint8Array): this {
    return this.tag(field, WireType.LengthDelimited).lengthDelimited(encoded)
  }

  finish(): Uint8Array {
    return this.buffer.slice(0, this.length)
  }
}

/** One field as it appears on the wire. Varints are raw 64-bit values (see `int64`, `int32`). */
export type Field =
  | { readonly field: number; readonly wireType: typeof WireType.Varint; readonly value: bigint }
  | { readonly field: number; readonly wireType: typeof WireType.LengthDelimited | typeof WireType.Fixed64 | typeof WireType.Fixed32; readonly value: Uint8Array }

const fail = (reason: string) => Either.left(new ProtocolError({ reason }))

/**
 * Every field of one message, in wire order, or why the bytes are not protobuf: a truncated
 * field, a varint longer than 10 bytes or above 64 bits, field number 0, or the deprecated group
 * wire types (3, 4), which no TRON message uses.
 */
export const readFields = (bytes: Uint8Array): Either.Either<ReadonlyArray<Field>, ProtocolError> => {
  const fields: Array<Field> = []
  let offset = 0
  const readVarint = (): bigint | string => {
    let value = 0n
    for (let i = 0; i < 10; i++) {
      if (offset >= bytes.length) return "truncated varint"
      const byte = bytes[offset++]!
      if (i === 9 && byte > 1) return "varint exceeds 64 bits"
      value |= BigInt(byte & 0x7f) << BigInt(7 * i)
      if (byte < 0x80) return value
    }
    return "varint longer than 10 bytes"
  }
  while (offset < bytes.length) {
    const key = readVarint()
    if (typeof key === "string") return fail(`${key} at byte ${offset}`)
    const wireType = Number(key & 7n)
    const fieldNumber = key >> 3n
    if (fieldNumber < 1n || fieldNumber > BigInt(maxFieldNumber)) return fail(`invalid field number ${fieldNumber}`)
    const field = Number(fieldNumber)
    switch (wireType) {
      case WireType.Varint: {
        const value = readVarint()
        if (typeof value === "string") return fail(`field ${field}: ${value}`)
        fields.push({ field, wireType, value })
        break
      }
      case WireType.LengthDelimited: {
        const length = readVarint()
        if (typeof length === "string") return fail(`field ${field}: ${length}`)
        if (length > BigInt(bytes.length - offset)) return fail(`field ${field}: length ${length} runs past the end`)
        fields.push({ field, wireType, value: bytes.slice(offset, offset + Number(length)) })
        offset += Number(length)
        break
      }
      case WireType.Fixed64:
      case WireType.Fixed32: {
        const size = wireType === WireType.Fixed64 ? 8 : 4
        if (size > bytes.length - offset) return fail(`field ${field}: truncated fixed${size * 8}`)
        fields.push({ field, wireType, value: bytes.slice(offset, offset + size) })
        offset += size
        break
      }
      default:
        return fail(`field ${field}: unsupported wire type ${wireType}`)
    }
  }
  return Either.right(fields)
}

/** The signed int64 of a raw varint. */
export const int64 = (raw: bigint): bigint => BigInt.asIntN(64, raw)

/** The int32 (or enum) of a raw varint: protobuf keeps the low 32 bits. */
export const int32 = (raw: bigint): number => Number(BigInt.asIntN(32, raw))

/** What a message may contain: field number -> wire kind, and whether it repeats. */
export type Schema = Readonly<Record<number, { readonly kind: "varint" | "bytes"; readonly repeated?: boolean }>>

/** A message read against its schema: absent scalars read as their default, as in proto3. */
export interface Message {
  readonly varint: (field: number) => bigint
  readonly bytes: (field: number) => Uint8Array
  readonly has: (field: number) => boolean
  readonly repeated: (field: number) => ReadonlyArray<Uint8Array>
}

/**
 * Reads a message that may hold only the fields of `schema`. Anything else — an unknown field,
 * a known field with the wrong wire type, a repeated occurrence of a singular field — is
 * refused rather than skipped: a verifier must never overlook bytes that will be signed.
 * (Protobuf itself would accept a repeated singular field, last one winning; refusing it
 * costs nothing, as java-tron never writes one.)
 */
export const readMessage = (bytes: Uint8Array, schema: Schema, name: string): Either.Either<Message, ProtocolError> =>
  Either.flatMap(readFields(bytes), (fields) => {
    const varints = new Map<number, bigint>()
    const lengthDelimited = new Map<number, Array<Uint8Array>>()
    for (const field of fields) {
      const spec = schema[field.field]
      if (spec === undefined) return fail(`${name}: unexpected field ${field.field}`)
      const expected = spec.kind === "varint" ? WireType.Varint : WireType.LengthDelimited
      if (field.wireType !== expected) return fail(`${name}: field ${field.field} has wire type ${field.wireType}, expected ${expected}`)
      if (field.wireType === WireType.Varint) {
        if (varints.has(field.field)) return fail(`${name}: field ${field.field} appears twice`)
        varints.set(field.field, field.value)
      } else {
        const list = lengthDelimited.get(field.field) ?? []
        if (list.length > 0 && spec.repeated !== true) return fail(`${name}: field ${field.field} appears twice`)
        list.push(field.value)
        lengthDelimited.set(field.field, list)
      }
    }
    return Either.right({
      varint: (field) => varints.get(field) ?? 0n,
      bytes: (field) => lengthDelimited.get(field)?.[0] ?? new Uint8Array(0),
      has: (field) => varints.has(field) || lengthDelimited.has(field),
      repeated: (field) => lengthDelimited.get(field) ?? []
    })
  })
