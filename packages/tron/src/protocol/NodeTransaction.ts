import { Either } from "effect"
import * as Hex from "./Hex.js"
import { ProtocolError } from "./ProtocolError.js"
import * as TransactionId from "./TransactionId.js"
import * as TransactionRaw from "./TransactionRaw.js"

/**
 * The unsigned transaction a node returns from its builder endpoints (`createtransaction`,
 * `triggersmartcontract`, `delegateresource`, ...): `raw_data` twice, as JSON and as
 * `raw_data_hex`, plus `txID`. The three must agree; tronweb checks exactly that before it
 * signs, and so must anyone who signs what a node built, because the signature covers the
 * bytes, not the JSON a client reads.
 */
export interface NodeTransaction {
  readonly visible: boolean
  readonly txID: string
  readonly raw_data: TransactionRaw.RawData
  readonly raw_data_hex: string
}

/**
 * The response a node would give for `raw`: `raw_data` in java-tron's canonical JSON (defaults
 * left out, addresses in the form `visible` asks for), its bytes as hex and its txID. This is
 * what a simulated node serves so that tronweb accepts it.
 */
export const fromRawData = (
  raw: TransactionRaw.RawData,
  options: { readonly visible: boolean }
): Either.Either<NodeTransaction, ProtocolError> =>
  Either.flatMap(TransactionRaw.encodeRawData(raw), (bytes) =>
    Either.map(TransactionRaw.decodeRawData(bytes, { visible: options.visible }), (canonical) => ({
      visible: options.visible,
      txID: TransactionId.compute(bytes),
      raw_data: canonical,
      raw_data_hex: Hex.fromBytes(bytes)
    })))

/**
 * The bytes to sign, once `raw_data_hex` is proven to be exactly the encoding of `raw_data`
 * and `txID` its SHA-256 — tronweb's `txCheck`, with the stricter encoder of this package
 * (unknown fields and mistyped values are refused, not dropped). Only then may the caller judge
 * the transaction by its `raw_data` (recipient, amount, fee_limit, expiration); the same
 * `raw_data` comes out of `TransactionRaw.decodeRawData` of the returned bytes.
 */
export const verify = (
  transaction: Pick<NodeTransaction, "txID" | "raw_data" | "raw_data_hex">
): Either.Either<Uint8Array, ProtocolError> =>
  Either.gen(function*() {
    const bytes = yield* Hex.field(transaction.raw_data_hex, "raw_data_hex")
    const encoded = yield* TransactionRaw.encodeRawData(transaction.raw_data)
    if (Hex.fromBytes(encoded) !== Hex.fromBytes(bytes)) {
      return yield* Either.left(new ProtocolError({ reason: "raw_data_hex is not the encoding of raw_data" }))
    }
    const txid = TransactionId.compute(bytes)
    if (typeof transaction.txID !== "string" || transaction.txID.toLowerCase() !== txid) {
      return yield* Either.left(new ProtocolError({ reason: `txID ${String(transaction.txID)} is not the SHA-256 of raw_data_hex (${txid})` }))
    }
    return bytes
  })
