import { sha256 } from "@noble/hashes/sha2.js"
import { Either } from "effect"
import * as Hex from "./Hex.js"
import * as Protobuf from "./Protobuf.js"
import { ProtocolError } from "./ProtocolError.js"
import * as TransactionRaw from "./TransactionRaw.js"

type Int64 = TransactionRaw.Int64

/**
 * A block header's `raw_data` (`protocol.BlockHeader.raw`) and the block ID derived from it:
 * the block number as 8 big-endian bytes followed by bytes 8-31 of SHA-256(raw bytes). The
 * number in the ID lets a node answer "which block is this" without a lookup; the rest makes
 * the ID commit to the header, and through `parentHash` to the whole chain before it, which
 * is how a reorganisation is recognised. The witness signs the full SHA-256 (`hash`).
 */

/** The header JSON as getblock / getnowblock print it; absent fields are zero or empty. */
export interface BlockHeaderRaw {
  readonly number?: Int64
  /** Merkle root of the block's transactions, hex. */
  readonly txTrieRoot?: string
  /** Hex (`41…`) or Base58Check (`visible: true`). */
  readonly witness_address?: string
  /** The parent's block ID, hex. */
  readonly parentHash?: string
  readonly version?: number
  /** Milliseconds since the epoch. */
  readonly timestamp?: Int64
  readonly witness_id?: Int64
  readonly accountStateRoot?: string
}

const Field = { timestamp: 1, txTrieRoot: 2, parentHash: 3, number: 7, witnessId: 8, witnessAddress: 9, version: 10, accountStateRoot: 11 } as const
const keys = new Set(["number", "txTrieRoot", "witness_address", "parentHash", "version", "timestamp", "witness_id", "accountStateRoot"])

const fail = (reason: string) => Either.left(new ProtocolError({ reason }))

const int64 = TransactionRaw.toInt64

/** The exact protobuf bytes of a header's `raw_data`. */
export const encode = (raw: BlockHeaderRaw): Either.Either<Uint8Array, ProtocolError> => {
  const input: unknown = raw
  if (typeof input !== "object" || input === null) return fail("block header raw_data must be an object")
  const stray = Object.keys(input).find((key) => !keys.has(key))
  if (stray !== undefined) return fail(`block header: unexpected field ${stray}`)
  return Either.gen(function*() {
    const timestamp = yield* int64(raw.timestamp, "block header timestamp")
    const txTrieRoot = yield* Hex.field(raw.txTrieRoot, "txTrieRoot")
    const parentHash = yield* Hex.field(raw.parentHash, "parentHash")
    const number = yield* int64(raw.number, "block header number")
    const witnessId = yield* int64(raw.witness_id, "block header witness_id")
    const witness = raw.witness_address === undefined
      ? new Uint8Array(0)
      : yield* Hex.address(raw.witness_address, "witness_address")
    const version = raw.version ?? 0
    if (!Number.isInteger(version) || version < -(2 ** 31) || version > 2 ** 31 - 1) return yield* fail("block header version must be an int32")
    const accountStateRoot = yield* Hex.field(raw.accountStateRoot, "accountStateRoot")
    return new Protobuf.Writer()
      .int64(Field.timestamp, timestamp)
      .bytes(Field.txTrieRoot, txTrieRoot)
      .bytes(Field.parentHash, parentHash)
      .int64(Field.number, number)
      .int64(Field.witnessId, witnessId)
      .bytes(Field.witnessAddress, witness)
      .int32(Field.version, version)
      .bytes(Field.accountStateRoot, accountStateRoot)
      .finish()
  })
}

/** SHA-256 of the header bytes: what the witness signs. */
export const hash = (raw: BlockHeaderRaw): Either.Either<Uint8Array, ProtocolError> => Either.map(encode(raw), (bytes) => sha256(bytes))

/** The block ID (64 hex characters), as java-tron's `blockID`. Needs a non-negative number. */
export const blockId = (raw: BlockHeaderRaw): Either.Either<string, ProtocolError> =>
  Either.gen(function*() {
    const number = yield* int64(raw.number, "block header number")
    if (number < 0n) return yield* fail("block number must not be negative")
    const digest = yield* hash(raw)
    return number.toString(16).padStart(16, "0") + Hex.fromBytes(digest.subarray(8))
  })
