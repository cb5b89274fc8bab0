import { Either } from "effect"
import * as Hex from "./Hex.js"
import * as Protobuf from "./Protobuf.js"
import { ProtocolError } from "./ProtocolError.js"

/**
 * A transaction's `raw_data`: the protobuf message `protocol.Transaction.raw` whose SHA-256 is
 * the txID and which the owner signs. This module converts between the node's JSON form of it
 * (what `/wallet/createtransaction`, `/wallet/triggersmartcontract`, ... return, and what
 * `getblock` lists) and its exact bytes, for the contract types the service deals with:
 * TransferContract (TRX), TriggerSmartContract (TRC20 calls) and Stake 2.0: staking
 * (FreezeBalanceV2 / UnfreezeBalanceV2) and resource delegation (energy rental, own stake).
 *
 * JSON conventions, as java-tron prints them: fields equal to their protobuf default (0, false,
 * empty, BANDWIDTH) are absent; bytes are lower-case hex — including the memo `data`, which is
 * hex even with `visible: true`; addresses are 21-byte `41…` hex, or Base58Check with
 * `visible: true`. Encoding accepts either address form and also accepts explicit defaults.
 *
 * Beyond the wire format the codec holds every transaction to the rules java-tron enforces
 * before accepting one, so a value that passes here is at least shaped like a valid
 * transaction: exactly one contract, a 2-byte `ref_block_bytes`, an 8-byte `ref_block_hash`
 * and a positive `expiration`.
 */

/**
 * int64 values: JSON numbers as the node sends them, or bigint beyond 2^53. Encoding also takes
 * decimal digit strings, which is how a lossless JSON parser hands over long integers;
 * decoding never yields strings.
 */
export type Int64 = number | bigint | `${bigint}`

export const contractTypes = {
  TransferContract: 1,
  TriggerSmartContract: 31,
  FreezeBalanceV2Contract: 54,
  UnfreezeBalanceV2Contract: 55,
  DelegateResourceContract: 57,
  UnDelegateResourceContract: 58
} as const
export type ContractType = keyof typeof contractTypes

/** `protocol.ResourceCode`. */
export const resourceCodes = { BANDWIDTH: 0, ENERGY: 1, TRON_POWER: 2 } as const
export type ResourceCode = keyof typeof resourceCodes

export type TypeUrl<T extends ContractType = ContractType> = `type.googleapis.com/protocol.${T}`

/** The `parameter.type_url` a contract of type `type` must carry. */
export const typeUrl = <T extends ContractType>(type: T): TypeUrl<T> => `type.googleapis.com/protocol.${type}`

export interface TransferContract {
  readonly owner_address: string
  readonly to_address: string
  /** SUN. */
  readonly amount?: Int64
}

export interface TriggerSmartContract {
  readonly owner_address: string
  readonly contract_address: string
  /** ABI call data, hex (selector and arguments). */
  readonly data?: string
  /** SUN sent along with the call. */
  readonly call_value?: Int64
  readonly call_token_value?: Int64
  readonly token_id?: Int64
}

/** Stakes `frozen_balance` SUN for `resource` (absent: BANDWIDTH). */
export interface FreezeBalanceV2Contract {
  readonly owner_address: string
  readonly frozen_balance?: Int64
  readonly resource?: ResourceCode
}

/** Starts unstaking `unfreeze_balance` SUN of `resource`; the TRX is withdrawable after the unfreeze delay. */
export interface UnfreezeBalanceV2Contract {
  readonly owner_address: string
  readonly unfreeze_balance?: Int64
  readonly resource?: ResourceCode
}

export interface DelegateResourceContract {
  readonly owner_address: string
  readonly resource?: ResourceCode
  /** SUN of staked TRX whose resource is delegated. */
  readonly balance?: Int64
  readonly receiver_address: string
  readonly lock?: boolean
  /** In blocks (3 s each). */
  readonly lock_period?: Int64
}

export interface UnDelegateResourceContract {
  readonly owner_address: string
  readonly resource?: ResourceCode
  readonly balance?: Int64
  readonly receiver_address: string
}

export interface ContractValues {
  readonly TransferContract: TransferContract
  readonly TriggerSmartContract: TriggerSmartContract
  readonly FreezeBalanceV2Contract: FreezeBalanceV2Contract
  readonly UnfreezeBalanceV2Contract: UnfreezeBalanceV2Contract
  readonly DelegateResourceContract: DelegateResourceContract
  readonly UnDelegateResourceContract: UnDelegateResourceContract
}

export type Contract = {
  readonly [T in ContractType]: {
    readonly type: T
    readonly parameter: { readonly value: ContractValues[T]; readonly type_url: TypeUrl<T> }
    /** The account permission that signs (0 = owner, absent; 2+ = an active permission). */
    readonly Permission_id?: number
  }
}[ContractType]

export interface RawData {
  /** Exactly one contract: java-tron refuses any other count. */
  readonly contract: ReadonlyArray<Contract>
  /** Bytes 6-7 of the reference block's number, hex (4 characters). */
  readonly ref_block_bytes: string
  /** Bytes 8-15 of the reference block's ID, hex (16 characters). */
  readonly ref_block_hash: string
  /** Milliseconds since the epoch. */
  readonly expiration: Int64
  readonly timestamp?: Int64
  /** SUN: the most the transaction may burn for energy. */
  readonly fee_limit?: Int64
  /** Memo, hex. */
  readonly data?: string
}

// ---------------------------------------------------------------------------------------------
// Field tables: one per contract message, in field-number order (the order of the encoding).

type Kind = "address" | "int64" | "bytes" | "bool" | "resource"
interface FieldSpec {
  readonly name: string
  readonly number: number
  readonly kind: Kind
}

const contractFields: { readonly [T in ContractType]: ReadonlyArray<FieldSpec> } = {
  TransferContract: [
    { name: "owner_address", number: 1, kind: "address" },
    { name: "to_address", number: 2, kind: "address" },
    { name: "amount", number: 3, kind: "int64" }
  ],
  TriggerSmartContract: [
    { name: "owner_address", number: 1, kind: "address" },
    { name: "contract_address", number: 2, kind: "address" },
    { name: "call_value", number: 3, kind: "int64" },
    { name: "data", number: 4, kind: "bytes" },
    { name: "call_token_value", number: 5, kind: "int64" },
    { name: "token_id", number: 6, kind: "int64" }
  ],
  // core/contract/balance_contract.proto: owner_address = 1, frozen_balance / unfreeze_balance = 2, resource = 3.
  FreezeBalanceV2Contract: [
    { name: "owner_address", number: 1, kind: "address" },
    { name: "frozen_balance", number: 2, kind: "int64" },
    { name: "resource", number: 3, kind: "resource" }
  ],
  UnfreezeBalanceV2Contract: [
    { name: "owner_address", number: 1, kind: "address" },
    { name: "unfreeze_balance", number: 2, kind: "int64" },
    { name: "resource", number: 3, kind: "resource" }
  ],
  DelegateResourceContract: [
    { name: "owner_address", number: 1, kind: "address" },
    { name: "resource", number: 2, kind: "resource" },
    { name: "balance", number: 3, kind: "int64" },
    { name: "receiver_address", number: 4, kind: "address" },
    { name: "lock", number: 5, kind: "bool" },
    { name: "lock_period", number: 6, kind: "int64" }
  ],
  UnDelegateResourceContract: [
    { name: "owner_address", number: 1, kind: "address" },
    { name: "resource", number: 2, kind: "resource" },
    { name: "balance", number: 3, kind: "int64" },
    { name: "receiver_address", number: 4, kind: "address" }
  ]
}

/** Transaction.raw field numbers. 3 (ref_block_num), 9 (auths) and 12 (scripts) are not modelled. */
const Raw = { refBlockBytes: 1, refBlockHash: 4, expiration: 8, data: 10, contract: 11, timestamp: 14, feeLimit: 18 } as const
/** Transaction.Contract field numbers. 3 (provider) and 4 (ContractName) are not modelled. */
const ContractField = { type: 1, parameter: 2, permissionId: 5 } as const
/** google.protobuf.Any. */
const AnyField = { typeUrl: 1, value: 2 } as const

const rawKeys = new Set(["contract", "ref_block_bytes", "ref_block_hash", "expiration", "timestamp", "fee_limit", "data"])
const contractKeys = new Set(["type", "parameter", "Permission_id"])
const parameterKeys = new Set(["value", "type_url"])

const isContractType = (value: unknown): value is ContractType =>
  typeof value === "string" && Object.prototype.hasOwnProperty.call(contractTypes, value)
const contractTypeOf = (code: number): ContractType | undefined =>
  (Object.keys(contractTypes) as Array<ContractType>).find((type) => contractTypes[type] === code)
const resourceOf = (code: number): ResourceCode | undefined =>
  (Object.keys(resourceCodes) as Array<ResourceCode>).find((name) => resourceCodes[name] === code)

const error = (reason: string) => new ProtocolError({ reason })
const fail = (reason: string) => Either.left(error(reason))

const int64Min = -(2n ** 63n)
const int64Max = 2n ** 63n - 1n
const safeMin = BigInt(Number.MIN_SAFE_INTEGER)
const safeMax = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * An int64 JSON value; absent is 0. A JSON number must be a safe integer: beyond 2^53 the
 * parser has already rounded it, and encoding the rounded value would sign something else.
 */
export const toInt64 = (value: unknown, name: string): Either.Either<bigint, ProtocolError> => {
  if (value === undefined) return Either.right(0n)
  if (typeof value === "number" && Number.isSafeInteger(value)) return Either.right(BigInt(value))
  const big = typeof value === "bigint" ? value : typeof value === "string" && /^-?[0-9]{1,20}$/.test(value) ? BigInt(value) : undefined
  if (big !== undefined && big >= int64Min && big <= int64Max) return Either.right(big)
  return fail(`${name} must be an int64 (a safe-integer number, a bigint or a decimal string), got ${String(value)}`)
}

/** A number while it is exact, a bigint beyond 2^53. */
const fromInt64 = (value: bigint): number | bigint => (value >= safeMin && value <= safeMax ? Number(value) : value)

const unexpectedKey = (object: object, allowed: ReadonlySet<string>): string | undefined =>
  Object.keys(object).find((key) => !allowed.has(key))

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// ---------------------------------------------------------------------------------------------
// Encoding

const encodeContractValue = (type: ContractType, value: unknown): Either.Either<Uint8Array, ProtocolError> => {
  if (!isObject(value)) return fail(`${type}: parameter.value must be an object`)
  const fields = contractFields[type]
  const stray = unexpectedKey(value, new Set(fields.map((field) => field.name)))
  if (stray !== undefined) return fail(`${type}: unexpected field ${stray}`)
  const writer = new Protobuf.Writer()
  for (const field of fields) {
    const name = `${type}.${field.name}`
    const input = value[field.name]
    switch (field.kind) {
      case "address": {
        const bytes = Hex.address(input, name)
        if (Either.isLeft(bytes)) return Either.left(bytes.left)
        writer.bytes(field.number, bytes.right)
        break
      }
      case "int64": {
        const number = toInt64(input, name)
        if (Either.isLeft(number)) return Either.left(number.left)
        writer.int64(field.number, number.right)
        break
      }
      case "bytes": {
        const bytes = Hex.field(input, name)
        if (Either.isLeft(bytes)) return Either.left(bytes.left)
        writer.bytes(field.number, bytes.right)
        break
      }
      case "bool": {
        if (input !== undefined && typeof input !== "boolean") return fail(`${name} must be a boolean`)
        writer.bool(field.number, input === true)
        break
      }
      case "resource": {
        if (input !== undefined && !(typeof input === "string" && Object.prototype.hasOwnProperty.call(resourceCodes, input))) {
          return fail(`${name} must be one of ${Object.keys(resourceCodes).join(", ")}`)
        }
        writer.int32(field.number, input === undefined ? 0 : resourceCodes[input as ResourceCode])
        break
      }
    }
  }
  return Either.right(writer.finish())
}

const encodeContract = (contract: unknown): Either.Either<Uint8Array, ProtocolError> => {
  if (!isObject(contract)) return fail("contract[0] must be an object")
  const stray = unexpectedKey(contract, contractKeys)
  if (stray !== undefined) return fail(`contract[0]: unexpected field ${stray}`)
  const type = contract["type"]
  if (!isContractType(type)) return fail(`contract[0].type must be one of ${Object.keys(contractTypes).join(", ")}, got ${String(type)}`)
  const parameter = contract["parameter"]
  if (!isObject(parameter)) return fail(`${type}: parameter must be an object`)
  const strayParameter = unexpectedKey(parameter, parameterKeys)
  if (strayParameter !== undefined) return fail(`${type}: unexpected parameter field ${strayParameter}`)
  if (parameter["type_url"] !== typeUrl(type)) return fail(`${type}: parameter.type_url must be ${typeUrl(type)}`)
  const permission = contract["Permission_id"] ?? 0
  if (typeof permission !== "number" || !Number.isInteger(permission) || permission < 0 || permission > 2 ** 31 - 1) {
    return fail(`${type}: Permission_id must be a non-negative int32`)
  }
  return Either.map(encodeContractValue(type, parameter["value"]), (value) => {
    const any = new Protobuf.Writer().string(AnyField.typeUrl, typeUrl(type)).bytes(AnyField.value, value).finish()
    return new Protobuf.Writer()
      .int32(ContractField.type, contractTypes[type])
      .message(ContractField.parameter, any)
      .int32(ContractField.permissionId, permission)
      .finish()
  })
}

const fixedHex = (value: unknown, name: string, length: number): Either.Either<Uint8Array, ProtocolError> =>
  Either.flatMap(Hex.field(value, name), (bytes) =>
    bytes.length === length ? Either.right(bytes) : fail(`${name} must be ${length} bytes (${length * 2} hex characters)`))

/**
 * The exact protobuf bytes of a `raw_data` JSON object, or why it cannot be one. Input is
 * checked at run time (it usually comes straight from a node's JSON): unknown keys, a
 * type_url that does not match the contract type, bad hex or addresses and non-integer
 * numbers are refused rather than dropped or coerced.
 */
export const encodeRawData = (raw: RawData): Either.Either<Uint8Array, ProtocolError> => {
  const input: unknown = raw
  if (!isObject(input)) return fail("raw_data must be an object")
  const stray = unexpectedKey(input, rawKeys)
  if (stray !== undefined) return fail(`raw_data: unexpected field ${stray}`)
  const contracts = input["contract"]
  if (!Array.isArray(contracts) || contracts.length !== 1) return fail("raw_data.contract must hold exactly one contract")
  return Either.gen(function*() {
    const refBlockBytes = yield* fixedHex(input["ref_block_bytes"], "ref_block_bytes", 2)
    const refBlockHash = yield* fixedHex(input["ref_block_hash"], "ref_block_hash", 8)
    const expiration = yield* toInt64(input["expiration"], "expiration")
    if (expiration <= 0n) return yield* fail("expiration must be a positive number of milliseconds")
    const data = yield* Hex.field(input["data"], "data")
    const contract = yield* encodeContract(contracts[0])
    const timestamp = yield* toInt64(input["timestamp"], "timestamp")
    const feeLimit = yield* toInt64(input["fee_limit"], "fee_limit")
    return new Protobuf.Writer()
      .bytes(Raw.refBlockBytes, refBlockBytes)
      .bytes(Raw.refBlockHash, refBlockHash)
      .int64(Raw.expiration, expiration)
      .bytes(Raw.data, data)
      .message(Raw.contract, contract)
      .int64(Raw.timestamp, timestamp)
      .int64(Raw.feeLimit, feeLimit)
      .finish()
  })
}

// ---------------------------------------------------------------------------------------------
// Decoding

export interface DecodeOptions {
  /** Addresses as Base58Check (the node's `visible: true`) instead of `41…` hex. */
  readonly visible?: boolean
}

const decodeContractValue = (
  type: ContractType,
  bytes: Uint8Array,
  visible: boolean
): Either.Either<Record<string, unknown>, ProtocolError> => {
  const fields = contractFields[type]
  const schema: Protobuf.Schema = Object.fromEntries(
    fields.map((field) => [field.number, { kind: field.kind === "address" || field.kind === "bytes" ? "bytes" : "varint" }] as const)
  )
  return Either.flatMap(Protobuf.readMessage(bytes, schema, type), (message): Either.Either<Record<string, unknown>, ProtocolError> => {
    const value: Record<string, unknown> = {}
    for (const field of fields) {
      const name = `${type}.${field.name}`
      switch (field.kind) {
        case "address": {
          if (!message.has(field.number)) return fail(`${name} is missing`)
          const text = Hex.addressText(message.bytes(field.number), name, visible)
          if (Either.isLeft(text)) return Either.left(text.left)
          value[field.name] = text.right
          break
        }
        case "int64": {
          const number = Protobuf.int64(message.varint(field.number))
          if (number !== 0n) value[field.name] = fromInt64(number)
          break
        }
        case "bytes": {
          const bytes = message.bytes(field.number)
          if (bytes.length > 0) value[field.name] = Hex.fromBytes(bytes)
          break
        }
        case "bool": {
          if (message.varint(field.number) !== 0n) value[field.name] = true
          break
        }
        case "resource": {
          const code = Protobuf.int32(message.varint(field.number))
          const resource = resourceOf(code)
          if (resource === undefined) return fail(`${name}: unknown resource code ${code}`)
          if (code !== 0) value[field.name] = resource
          break
        }
      }
    }
    return Either.right(value)
  })
}

const decodeContract = (bytes: Uint8Array, visible: boolean): Either.Either<Contract, ProtocolError> =>
  Either.gen(function*() {
    const message = yield* Protobuf.readMessage(
      bytes,
      { [ContractField.type]: { kind: "varint" }, [ContractField.parameter]: { kind: "bytes" }, [ContractField.permissionId]: { kind: "varint" } },
      "Transaction.Contract"
    )
    const code = Protobuf.int32(message.varint(ContractField.type))
    const type = contractTypeOf(code)
    if (type === undefined) return yield* fail(`unsupported contract type ${code}`)
    if (!message.has(ContractField.parameter)) return yield* fail(`${type}: parameter is missing`)
    const any = yield* Protobuf.readMessage(
      message.bytes(ContractField.parameter),
      { [AnyField.typeUrl]: { kind: "bytes" }, [AnyField.value]: { kind: "bytes" } },
      "google.protobuf.Any"
    )
    const url = new TextDecoder().decode(any.bytes(AnyField.typeUrl))
    if (url !== typeUrl(type)) return yield* fail(`${type}: type_url is ${JSON.stringify(url)}, expected ${typeUrl(type)}`)
    const value = yield* decodeContractValue(type, any.bytes(AnyField.value), visible)
    const permission = Protobuf.int32(message.varint(ContractField.permissionId))
    if (permission < 0) return yield* fail(`${type}: negative Permission_id ${permission}`)
    return {
      type,
      parameter: { value, type_url: url },
      ...(permission !== 0 ? { Permission_id: permission } : {})
    } as unknown as Contract
  })

/**
 * The node-style JSON of `raw_data` bytes. Refuses, rather than skips, anything it does not
 * model — other contract types, `auths`, `scripts`, unknown fields — and bytes that are valid
 * protobuf but not in the canonical form java-tron writes (explicit defaults, fields out of
 * order, over-long varints): re-encoding the result must give back exactly `bytes`, so what
 * the caller inspects is exactly what gets signed.
 */
export const decodeRawData = (bytes: Uint8Array, options?: DecodeOptions): Either.Either<RawData, ProtocolError> => {
  const visible = options?.visible === true
  return Either.gen(function*() {
    const message = yield* Protobuf.readMessage(
      bytes,
      {
        [Raw.refBlockBytes]: { kind: "bytes" },
        [Raw.refBlockHash]: { kind: "bytes" },
        [Raw.expiration]: { kind: "varint" },
        [Raw.data]: { kind: "bytes" },
        [Raw.contract]: { kind: "bytes", repeated: true },
        [Raw.timestamp]: { kind: "varint" },
        [Raw.feeLimit]: { kind: "varint" }
      },
      "Transaction.raw"
    )
    const contracts = message.repeated(Raw.contract)
    if (contracts.length !== 1) return yield* fail(`raw_data holds ${contracts.length} contracts, expected exactly one`)
    const contract = yield* decodeContract(contracts[0]!, visible)
    const data = message.bytes(Raw.data)
    const feeLimit = Protobuf.int64(message.varint(Raw.feeLimit))
    const timestamp = Protobuf.int64(message.varint(Raw.timestamp))
    const raw: RawData = {
      contract: [contract],
      ref_block_bytes: Hex.fromBytes(message.bytes(Raw.refBlockBytes)),
      ref_block_hash: Hex.fromBytes(message.bytes(Raw.refBlockHash)),
      expiration: fromInt64(Protobuf.int64(message.varint(Raw.expiration))),
      ...(data.length > 0 ? { data: Hex.fromBytes(data) } : {}),
      ...(feeLimit !== 0n ? { fee_limit: fromInt64(feeLimit) } : {}),
      ...(timestamp !== 0n ? { timestamp: fromInt64(timestamp) } : {})
    }
    // Also applies the transaction rules (lengths, positive expiration) to what was read.
    const canonical = yield* encodeRawData(raw)
    if (!equalBytes(canonical, bytes)) return yield* fail("raw_data is not in canonical protobuf form")
    return raw
  })
}

/** `decodeRawData` of the node's `raw_data_hex`. */
export const decodeRawDataHex = (hex: string, options?: DecodeOptions): Either.Either<RawData, ProtocolError> =>
  Either.flatMap(Hex.field(hex, "raw_data_hex"), (bytes) => decodeRawData(bytes, options))

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i])
