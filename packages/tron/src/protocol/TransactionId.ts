import { sha256 } from "@noble/hashes/sha2.js"
import { Either } from "effect"
import * as Hex from "./Hex.js"
import type { ProtocolError } from "./ProtocolError.js"
import * as TransactionRaw from "./TransactionRaw.js"

/**
 * A transaction's ID: SHA-256 of its `raw_data` protobuf bytes, as 64 lower-case hex
 * characters. It is also the 32-byte hash the owner signs (see TronSignature). Signatures are
 * outside `raw_data`, so signing does not change the ID.
 */

/** The txID of `raw_data` bytes. */
export const compute = (rawData: Uint8Array): string => Hex.fromBytes(sha256(rawData))

/** The txID of a `raw_data` JSON object (encoded with TransactionRaw.encodeRawData). */
export const ofRawData = (raw: TransactionRaw.RawData): Either.Either<string, ProtocolError> =>
  Either.map(TransactionRaw.encodeRawData(raw), compute)
