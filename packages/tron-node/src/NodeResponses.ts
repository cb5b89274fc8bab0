import { ParseResult, Schema } from "effect"

/**
 * The parts of java-tron's JSON replies the adapter reads. java-tron prints protobuf with
 * default values left out: a 0, false, empty string or empty list is simply missing, so every
 * numeric field decodes a missing value as 0 and every list as empty. Unknown fields are ignored.
 */

/** An int64 as the node prints it: a JSON number, or a digit string when `LosslessJson.parse` kept it exact. */
export const NodeInt = Schema.transformOrFail(
  Schema.Union(Schema.Number, Schema.String.pipe(Schema.pattern(/^-?\d+$/))),
  Schema.BigIntFromSelf,
  {
    strict: true,
    decode: (value, _, ast) =>
      typeof value === "string" || Number.isSafeInteger(value)
        ? ParseResult.succeed(BigInt(value))
        : ParseResult.fail(new ParseResult.Type(ast, value, `expected an exact integer, got ${value}`)),
    encode: (value) => ParseResult.succeed(Number.isSafeInteger(Number(value)) ? Number(value) : value.toString())
  }
)

/** A number java-tron leaves out when it is zero. */
const IntOrZero = Schema.optionalWith(NodeInt, { default: () => 0n })
const Strings = Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] })
const Hex = Schema.String.pipe(Schema.pattern(/^([0-9a-fA-F]{2})*$/))
const Hash = Schema.String.pipe(Schema.pattern(/^[0-9a-fA-F]{64}$/))

/** `getblock`, `getnowblock`, `getblockbynum`; `{}` (checked before decoding) when there is no such block. */
export const BlockReply = Schema.Struct({
  blockID: Hash,
  block_header: Schema.Struct({
    raw_data: Schema.Struct({
      number: IntOrZero,
      parentHash: Hash,
      timestamp: IntOrZero,
      // All zeros when the block has no transactions: tells an empty block from missing receipts.
      txTrieRoot: Schema.optionalWith(Schema.String, { default: () => "" })
    })
  })
})
export type BlockReply = typeof BlockReply.Type

const Log = Schema.Struct({
  address: Schema.optionalWith(Schema.String, { default: () => "" }),
  topics: Strings,
  data: Schema.optionalWith(Schema.String, { default: () => "" })
})

const ResourceReceipt = Schema.Struct({
  energy_usage: IntOrZero,
  energy_fee: IntOrZero,
  origin_energy_usage: IntOrZero,
  energy_usage_total: IntOrZero,
  energy_penalty_total: IntOrZero,
  net_usage: IntOrZero,
  net_fee: IntOrZero,
  /** Set for contract calls only; a plain TRX transfer has none. */
  result: Schema.optional(Schema.String)
})

/** One entry of `gettransactioninfobyblocknum`, or the whole reply of `gettransactioninfobyid`. */
export const TransactionInfo = Schema.Struct({
  id: Hash,
  fee: IntOrZero,
  blockNumber: IntOrZero,
  blockTimeStamp: IntOrZero,
  contract_address: Schema.optional(Schema.String),
  receipt: Schema.optionalWith(ResourceReceipt, { default: () => Schema.decodeSync(ResourceReceipt)({}) }),
  log: Schema.optionalWith(Schema.Array(Log), { default: () => [] }),
  /** "FAILED" when the transaction failed; missing when it succeeded. */
  result: Schema.optional(Schema.String),
  /** Hex of the failure text. */
  resMessage: Schema.optional(Schema.String)
})
export type TransactionInfo = typeof TransactionInfo.Type


/** `getaccount`; `{}` (checked before decoding) for an address that does not exist on chain. */
export const AccountReply = Schema.Struct({
  address: Schema.String,
  balance: IntOrZero
})

/** `getaccountresource`: the node derives the limits from stakes, delegations and network totals. */
export const AccountResourceReply = Schema.Struct({
  freeNetUsed: IntOrZero,
  freeNetLimit: IntOrZero,
  NetUsed: IntOrZero,
  NetLimit: IntOrZero,
  EnergyUsed: IntOrZero,
  EnergyLimit: IntOrZero
})

export const ChainParametersReply = Schema.Struct({
  chainParameter: Schema.Array(Schema.Struct({ key: Schema.String, value: IntOrZero }))
})

/** The `Return` of contract calls and builders: `{"result": true}` or `{"code", "message"}`. */
export const NodeReturn = Schema.Struct({
  result: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  code: Schema.optional(Schema.String),
  message: Schema.optional(Schema.String)
})
export type NodeReturn = typeof NodeReturn.Type

const ReturnOrEmpty = Schema.optionalWith(NodeReturn, { default: () => ({ result: false }) })

/** `triggerconstantcontract`: `energy_used` already includes `energy_penalty` (java-tron adds the penalty into both). */
export const ConstantCallReply = Schema.Struct({
  result: ReturnOrEmpty,
  energy_used: IntOrZero,
  energy_penalty: IntOrZero,
  constant_result: Strings,
  transaction: Schema.optional(Schema.Struct({
    /** `[{}]` on success; `[{"ret": "FAILED"}]` when the call reverted or ran out of energy. */
    ret: Schema.optionalWith(Schema.Array(Schema.Struct({ ret: Schema.optional(Schema.String) })), { default: () => [] })
  }))
})

export const EstimateEnergyReply = Schema.Struct({
  result: ReturnOrEmpty,
  energy_required: IntOrZero
})

/** `triggersmartcontract`: an unsigned transaction when `result.result` is true. */
export const BuiltTransactionReply = Schema.Struct({
  result: ReturnOrEmpty,
  transaction: Schema.optional(Schema.Struct({
    txID: Hash,
    raw_data_hex: Hex,
    raw_data: Schema.Struct({ expiration: NodeInt, fee_limit: IntOrZero })
  }))
})

/**
 * `broadcasthex` prints every field (`code` "SUCCESS", a UTF-8 `message`); `broadcasttransaction`
 * leaves out the defaults and prints `message` as hex. Both are accepted.
 */
export const BroadcastReply = Schema.Struct({
  result: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  code: Schema.optional(Schema.String),
  message: Schema.optional(Schema.String),
  txid: Schema.optional(Schema.String)
})

/** `getaccountresource`'s network totals: energy per staked TRX is TotalEnergyLimit / TotalEnergyWeight. */
export const StakeTotalsReply = Schema.Struct({
  TotalEnergyLimit: IntOrZero,
  TotalEnergyWeight: IntOrZero
})

/** `getcandelegatedmaxsize`: `{"max_size": SUN}`, `{}` when nothing can be delegated. */
export const CanDelegateReply = Schema.Struct({ max_size: IntOrZero })

/** `getdelegatedresourcev2`: `{}` when `fromAddress` lends nothing to `toAddress`. */
export const DelegatedResourceReply = Schema.Struct({
  delegatedResource: Schema.optionalWith(
    Schema.Array(Schema.Struct({ frozen_balance_for_energy: IntOrZero, expire_time_for_energy: IntOrZero })),
    { default: () => [] }
  )
})

/**
 * `getaccount`'s own-stake fields: `frozenV2` has one entry per resource (BANDWIDTH's without a
 * `type`, a zero without an `amount`); an unknown account is `{}`.
 */
export const EnergyStakeReply = Schema.Struct({
  frozenV2: Schema.optionalWith(Schema.Array(Schema.Struct({ type: Schema.optional(Schema.String), amount: IntOrZero })), { default: () => [] }),
  account_resource: Schema.optionalWith(Schema.Struct({ delegated_frozenV2_balance_for_energy: IntOrZero }), {
    default: () => ({ delegated_frozenV2_balance_for_energy: 0n })
  })
})

/** The Stake 2.0 builders (`delegateresource`, `undelegateresource`, `freezebalancev2`, `unfreezebalancev2`) answer the transaction itself. */
export const StakeBuiltReply = Schema.Struct({
  txID: Hash,
  raw_data_hex: Hex
})
