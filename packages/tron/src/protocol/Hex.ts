import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { Either, Option } from "effect"
import * as TronAddress from "../TronAddress.js"
import { ProtocolError } from "./ProtocolError.js"

/**
 * The two text forms the node API uses for bytes: hex (without `0x`, either case on input,
 * lower case on output, as java-tron prints it) and, for address fields with `visible: true`,
 * Base58Check. Internal to the protocol codecs.
 */

const hexPattern = /^(?:[0-9a-fA-F]{2})*$/

/** The bytes of an even-length hex string (possibly empty); None for anything else. */
export const toBytes = (hex: unknown): Option.Option<Uint8Array> =>
  typeof hex === "string" && hexPattern.test(hex) ? Option.some(hexToBytes(hex)) : Option.none()

export const fromBytes = (bytes: Uint8Array): string => bytesToHex(bytes)

/** Hex of a named JSON field; absent means empty. */
export const field = (value: unknown, name: string): Either.Either<Uint8Array, ProtocolError> =>
  value === undefined
    ? Either.right(new Uint8Array(0))
    : Either.fromOption(toBytes(value), () => new ProtocolError({ reason: `${name} must be an even-length hex string` }))

/**
 * The 21 bytes (0x41 || 20-byte account) of an address given as Base58Check or as the
 * node's `41…` hex. Anything else, including the bare 20-byte form, is refused: in a
 * transaction an address is always 21 bytes.
 */
export const address = (value: unknown, name: string): Either.Either<Uint8Array, ProtocolError> => {
  const fail = () => new ProtocolError({ reason: `${name} must be a TRON address (Base58Check or 41-prefixed hex)` })
  if (typeof value !== "string") return Either.left(fail())
  const hex = TronAddress.isValidTronAddress(value) ? TronAddress.toHex(value) : Option.some(value)
  return Option.match(Option.flatMap(hex, toBytes), {
    onNone: () => Either.left(fail()),
    onSome: (bytes) => (bytes.length === 21 && bytes[0] === 0x41 ? Either.right(bytes) : Either.left(fail()))
  })
}

/** An address's text in the requested form: 41-hex (the default) or Base58Check (`visible`). */
export const addressText = (bytes: Uint8Array, name: string, visible: boolean): Either.Either<string, ProtocolError> => {
  if (bytes.length !== 21 || bytes[0] !== 0x41) {
    return Either.left(new ProtocolError({ reason: `${name} must be 21 bytes starting 0x41, got ${bytes.length} bytes` }))
  }
  const hex = bytesToHex(bytes)
  return visible ? Either.right(Option.getOrThrow(TronAddress.fromHex(hex))) : Either.right(hex)
}
