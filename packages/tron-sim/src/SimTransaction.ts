import { Protobuf, type ProtocolError, TransactionId, TransactionRaw } from "@collector/tron"
import { Either } from "effect"

/**
 * A signed transaction as the simulator holds it: the exact raw_data bytes (whose SHA-256 is
 * the txid and which the signatures cover), their decoded JSON form with 41-hex addresses, and
 * the signatures. The bytes are kept as received: re-encoding could differ from what was signed.
 */
export interface SimTransaction {
  readonly txid: string
  readonly rawDataHex: string
  readonly raw: TransactionRaw.RawData
  /** 65-byte r || s || v, hex. */
  readonly signatures: ReadonlyArray<string>
}

/** `protocol.Transaction`: 1 raw_data, 2 signature (repeated), 5 ret (repeated, cleared by nodes on receipt). */
const Field = { rawData: 1, signature: 2, ret: 5 } as const

const hexBytes = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"))

/** The `protocol.Transaction` bytes: what `broadcasthex` carries and what bandwidth is charged for. */
export const encodeSigned = (tx: Pick<SimTransaction, "rawDataHex" | "signatures">): Uint8Array => {
  const writer = new Protobuf.Writer().message(Field.rawData, hexBytes(tx.rawDataHex))
  for (const signature of tx.signatures) writer.bytes(Field.signature, hexBytes(signature))
  return writer.finish()
}

export const signedHex = (tx: Pick<SimTransaction, "rawDataHex" | "signatures">): string =>
  Buffer.from(encodeSigned(tx)).toString("hex")

/** A transaction from raw_data bytes and signatures; fails when the bytes are not a transaction the codec models. */
export const fromRawBytes = (rawBytes: Uint8Array, signatures: ReadonlyArray<string>): Either.Either<SimTransaction, ProtocolError> =>
  Either.map(TransactionRaw.decodeRawData(rawBytes, { visible: false }), (raw) => ({
    txid: TransactionId.compute(rawBytes),
    rawDataHex: Buffer.from(rawBytes).toString("hex"),
    raw,
    signatures
  }))

/** A transaction from its raw_data JSON (any address form) and signatures. */
export const fromRawData = (raw: TransactionRaw.RawData, signatures: ReadonlyArray<string>): Either.Either<SimTransaction, ProtocolError> =>
  Either.flatMap(TransactionRaw.encodeRawData(raw), (bytes) => fromRawBytes(bytes, signatures))

/** Decodes `broadcasthex` input. A `ret` the sender left in is ignored, as java-tron resets it. */
export const decodeSigned = (hex: string): Either.Either<SimTransaction, ProtocolError> =>
  Either.gen(function*() {
    const bytes = hexBytes(/^(?:[0-9a-fA-F]{2})+$/.test(hex) ? hex : "")
    const message = yield* Protobuf.readMessage(
      bytes,
      { [Field.rawData]: { kind: "bytes" }, [Field.signature]: { kind: "bytes", repeated: true }, [Field.ret]: { kind: "bytes", repeated: true } },
      "Transaction"
    )
    const signatures = message.repeated(Field.signature).map((signature) => Buffer.from(signature).toString("hex"))
    return yield* fromRawBytes(message.bytes(Field.rawData), signatures)
  })

/**
 * Bandwidth a transaction uses: its serialized size without `ret`, plus 64 bytes reserved for
 * the result (java-tron's BandwidthProcessor with the VM enabled). A USDT transfer comes to ~345.
 */
export const bandwidthBytes = (tx: SimTransaction): bigint => BigInt(encodeSigned(tx).length + 64)

export const contractOf = (tx: Pick<SimTransaction, "raw">): TransactionRaw.Contract => tx.raw.contract[0]!

/** Every modelled contract names its owner (the signer) in `owner_address`. */
export const ownerOf = (tx: Pick<SimTransaction, "raw">): string => contractOf(tx).parameter.value.owner_address.toLowerCase()

export const expirationOf = (tx: Pick<SimTransaction, "raw">): number => Number(tx.raw.expiration)

export const feeLimitOf = (tx: Pick<SimTransaction, "raw">): bigint => BigInt(tx.raw.fee_limit ?? 0)
