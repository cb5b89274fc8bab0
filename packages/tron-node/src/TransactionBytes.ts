import { createHash } from "node:crypto"
import { Option } from "effect"
import { type ProtobufField, readFields } from "./ProtobufFields"

/**
 * The little transaction protobuf the adapter writes or checks itself (kept local until the
 * protocol helpers in @collector/tron are consolidated): the txid of raw_data, the signed
 * Transaction for `broadcasthex`, and what a node-built TriggerSmartContract really says.
 */

/** txID = sha256(raw_data bytes). */
export const txidOf = (rawDataHex: string): string => createHash("sha256").update(Buffer.from(rawDataHex, "hex")).digest("hex")

/** Protobuf base-128 varint, as hex. */
const varint = (value: number): string => {
  let hex = ""
  let rest = value
  while (rest >= 0x80) {
    hex += ((rest & 0x7f) | 0x80).toString(16).padStart(2, "0")
    rest = Math.floor(rest / 0x80)
  }
  return hex + rest.toString(16).padStart(2, "0")
}

/** A length-delimited field: tag byte, length, bytes. */
const field = (tag: string, hex: string): string => tag + varint(hex.length / 2) + hex

/**
 * `Transaction { raw raw_data = 1; repeated bytes signature = 2; }` with raw_data passed through
 * byte for byte: re-encoding it from JSON (as `broadcasttransaction` does) could change the bytes
 * the signatures cover.
 */
export const signedTransactionHex = (rawDataHex: string, signatures: ReadonlyArray<string>): string =>
  field("0a", rawDataHex.toLowerCase()) + signatures.map((signature) => field("12", signature.toLowerCase())).join("")

/** What a single-contract TriggerSmartContract transaction asks for; addresses as 21-byte hex. */
export interface TriggerCall {
  readonly owner: string
  readonly contract: string
  readonly data: string
  readonly callValue: bigint
  readonly tokenValue: bigint
  readonly expiration: bigint
  readonly feeLimit: bigint
}

/** `ContractType.TriggerSmartContract`. */
const triggerSmartContract = 31n

const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString("hex")
const only = (fields: ReadonlyArray<ProtobufField>, number: number) => fields.filter((f) => f.number === number)
const first = (fields: ReadonlyArray<ProtobufField>, number: number) => fields.find((f) => f.number === number)

/**
 * Reads raw_data (fields: 8 expiration, 11 contract, 18 fee_limit) and its one contract
 * (1 type, 2 parameter: Any{1 type_url, 2 value}) as a TriggerSmartContract (1 owner_address,
 * 2 contract_address, 3 call_value, 4 data, 5 call_token_value). None for anything else,
 * including a transaction with more than one contract.
 */
export const readTriggerCall = (rawDataHex: string): Option.Option<TriggerCall> =>
  Option.gen(function*() {
    const raw = yield* readFields(Buffer.from(rawDataHex, "hex"))
    const contracts = only(raw, 11)
    if (contracts.length !== 1) return yield* Option.none()
    const contract = yield* readFields(contracts[0]!.bytes ?? new Uint8Array())
    if (first(contract, 1)?.int !== triggerSmartContract) return yield* Option.none()
    const parameter = yield* readFields(first(contract, 2)?.bytes ?? new Uint8Array())
    const call = yield* readFields(first(parameter, 2)?.bytes ?? new Uint8Array())
    return {
      owner: hex(first(call, 1)?.bytes),
      contract: hex(first(call, 2)?.bytes),
      data: hex(first(call, 4)?.bytes),
      callValue: first(call, 3)?.int ?? 0n,
      tokenValue: first(call, 5)?.int ?? 0n,
      expiration: first(raw, 8)?.int ?? 0n,
      feeLimit: first(raw, 18)?.int ?? 0n
    }
  })
