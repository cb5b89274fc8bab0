import { Option } from "effect"

/**
 * A flat protobuf reader: the top-level fields of one message, enough to check what a node-built
 * transaction says without trusting its JSON rendering. Nested messages are read by calling it
 * again on a field's bytes.
 */
export interface ProtobufField {
  readonly number: number
  /** Wire type 0 (varint) and the fixed-width types 1 and 5. */
  readonly int?: bigint
  /** Wire type 2 (bytes, strings, nested messages). */
  readonly bytes?: Uint8Array
}

/** None when the bytes are not a well-formed message (truncated, groups, overlong varints). */
export const readFields = (bytes: Uint8Array): Option.Option<ReadonlyArray<ProtobufField>> => {
  const fields: Array<ProtobufField> = []
  let at = 0
  const varint = (): bigint | undefined => {
    let value = 0n
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (at >= bytes.length) return undefined
      const byte = bytes[at++]!
      value |= BigInt(byte & 0x7f) << shift
      if ((byte & 0x80) === 0) return value
    }
    return undefined
  }
  const fixed = (width: number): bigint | undefined => {
    if (at + width > bytes.length) return undefined
    let value = 0n
    for (let i = width - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[at + i]!)
    at += width
    return value
  }
  while (at < bytes.length) {
    const key = varint()
    if (key === undefined) return Option.none()
    const number = Number(key >> 3n)
    const wireType = Number(key & 7n)
    if (number === 0) return Option.none()
    if (wireType === 2) {
      const length = varint()
      if (length === undefined || at + Number(length) > bytes.length) return Option.none()
      fields.push({ number, bytes: bytes.subarray(at, at + Number(length)) })
      at += Number(length)
    } else {
      const int = wireType === 0 ? varint() : wireType === 1 ? fixed(8) : wireType === 5 ? fixed(4) : undefined
      if (int === undefined) return Option.none()
      fields.push({ number, int })
    }
  }
  return Option.some(fields)
}
