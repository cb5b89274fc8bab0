import { Either } from "effect"
import * as TronAddress from "../TronAddress.js"
import { ProtocolError } from "./ProtocolError.js"
import type { RefBlock } from "./RefBlock.js"
import * as TransactionId from "./TransactionId.js"
import * as TransactionRaw from "./TransactionRaw.js"
import * as Trc20Call from "./Trc20Call.js"

/**
 * An unsigned TRC20 `transfer(to, amount)` transaction built here, byte for byte what a node's
 * `/wallet/triggersmartcontract` returns for the same fields (one TriggerSmartContract, no call
 * value), so building one costs no node call and what is signed is exactly what was asked for.
 */
export interface TransferRequest {
  /** Base58Check: the sender, whose key signs. */
  readonly owner: string
  /** Base58Check: the token contract. */
  readonly contract: string
  /** Base58Check: the recipient. */
  readonly to: string
  /** Token units. */
  readonly amount: bigint
  /** SUN: the most the transaction may burn for energy. */
  readonly feeLimit: bigint
  /** The recent block the transaction names (TaPoS). */
  readonly refBlock: RefBlock
  /** Milliseconds since the epoch. */
  readonly expiration: bigint
  /** Milliseconds since the epoch: when it was built. */
  readonly timestamp: bigint
}

export interface BuiltTransfer {
  readonly rawDataHex: string
  readonly txid: string
}

const int64Max = 2n ** 63n - 1n

const base58 = (address: string, name: string): Either.Either<string, ProtocolError> =>
  TronAddress.isValidTronAddress(address)
    ? Either.right(address)
    : Either.left(new ProtocolError({ reason: `${name} must be a Base58Check TRON address, got ${String(address)}` }))

const int64From = (least: bigint, rule: string) => (value: bigint, name: string): Either.Either<bigint, ProtocolError> =>
  typeof value === "bigint" && value >= least && value <= int64Max
    ? Either.right(value)
    : Either.left(new ProtocolError({ reason: `${name} must be a ${rule} int64, got ${String(value)}` }))
const positiveInt64 = int64From(1n, "positive")
// A node leaves a zero timestamp out; it is only informative, so a clock at the epoch still builds.
const nonNegativeInt64 = int64From(0n, "non-negative")

export const build = (request: TransferRequest): Either.Either<BuiltTransfer, ProtocolError> =>
  Either.gen(function*() {
    const owner = yield* base58(request.owner, "owner")
    const contract = yield* base58(request.contract, "contract")
    const to = yield* base58(request.to, "recipient")
    const data = yield* Trc20Call.transferData(to, request.amount)
    const bytes = yield* TransactionRaw.encodeRawData({
      contract: [{
        type: "TriggerSmartContract",
        parameter: {
          type_url: TransactionRaw.typeUrl("TriggerSmartContract"),
          value: { owner_address: owner, contract_address: contract, data }
        }
      }],
      ref_block_bytes: request.refBlock.ref_block_bytes,
      ref_block_hash: request.refBlock.ref_block_hash,
      expiration: yield* positiveInt64(request.expiration, "expiration"),
      timestamp: yield* nonNegativeInt64(request.timestamp, "timestamp"),
      fee_limit: yield* positiveInt64(request.feeLimit, "fee limit")
    })
    return { rawDataHex: Buffer.from(bytes).toString("hex"), txid: TransactionId.compute(bytes) }
  })
