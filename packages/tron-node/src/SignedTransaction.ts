import { Protobuf } from "@collector/tron"
import { Option } from "effect"

/**
 * The signed `Transaction` that `broadcasthex` takes, written with the shared Protobuf writer:
 * `Transaction { raw raw_data = 1; repeated bytes signature = 2; }`.
 */

const hexPattern = /^(?:[0-9a-fA-F]{2})*$/

/**
 * raw_data is passed through byte for byte: re-encoding it from JSON (as `broadcasttransaction`
 * does) could change the bytes the signatures cover. Every signature is written, even an empty
 * one. None when any input is not even-length hex, which Buffer would silently truncate.
 */
export const signedTransactionHex = (rawDataHex: string, signatures: ReadonlyArray<string>): Option.Option<string> => {
  if (!hexPattern.test(rawDataHex) || !signatures.every((signature) => hexPattern.test(signature))) return Option.none()
  const writer = new Protobuf.Writer().message(1, Buffer.from(rawDataHex, "hex"))
  for (const signature of signatures) writer.tag(2, Protobuf.WireType.LengthDelimited).lengthDelimited(Buffer.from(signature, "hex"))
  return Option.some(Buffer.from(writer.finish()).toString("hex"))
}
