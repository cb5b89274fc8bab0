import type { TransactionRaw } from "@collector/tron"
import { Either } from "effect"
import { builtTransactionJson } from "./BlockJson.js"
import { pendingWorld } from "./Broadcast.js"
import { delegate, undelegate } from "./Delegation.js"
import { errorReply } from "./NodeJson.js"
import { addressField, type Body, type ErrorReply, intField } from "./RequestBody.js"
import type { SimState } from "./SimState.js"
import { freezeV2, unfreezeV2 } from "./Staking.js"
import { rawFor } from "./TransactionBuilder.js"
import type { WorldState } from "./WorldState.js"

/**
 * The Stake 2.0 builders: `freezebalancev2`, `unfreezebalancev2`, `delegateresource`,
 * `undelegateresource`. Like java-tron's servlets they validate the contract against the
 * current state (head plus pending pool) and answer either the unsigned transaction
 * (`visible`, `txID`, `raw_data`, `raw_data_hex`, the same shape createtransaction gives) or
 * `{"Error": "class org.tron.core.exception.ContractValidateException : <text>"}` (the shape of
 * test-fixtures/tron/shasta_createtransaction_error_balance.response.json). The same rules run
 * again when the signed transaction is broadcast and when it is mined.
 */

const illegal = (text: string) => errorReply("java.lang.IllegalArgumentException", text)
const invalid = (text: string) => errorReply("org.tron.core.exception.ContractValidateException", text)

/** `resource` as the JSON enum name (absent: BANDWIDTH); a number is taken as its code, as protobuf's JSON parser does. */
const resourceField = (body: Body): Either.Either<TransactionRaw.ResourceCode | undefined, ErrorReply> => {
  const value = body["resource"]
  if (value === undefined || value === "BANDWIDTH" || value === 0) return Either.right(undefined)
  if (value === "ENERGY" || value === 1) return Either.right("ENERGY")
  if (value === "TRON_POWER" || value === 2) return Either.right("TRON_POWER")
  return Either.left(illegal(`resource must be BANDWIDTH, ENERGY or TRON_POWER, got ${String(value)}`))
}

/** An int64 amount, left out of the contract when 0 (protobuf's default), as java-tron prints it. */
const amount = (name: string, value: bigint) => (value === 0n ? {} : { [name]: value })

const withResource = (resource: TransactionRaw.ResourceCode | undefined) => (resource === undefined ? {} : { resource })

type Build = (state: SimState, body: Body, visible: boolean, now: number) => unknown

/** Validates `contract` with `rule` on the pending state and answers the built transaction or the refusal. */
const built = (
  state: SimState,
  visible: boolean,
  now: number,
  contract: TransactionRaw.Contract,
  rule: (world: WorldState) => Either.Either<WorldState, string>
): unknown =>
  Either.match(rule(pendingWorld(state, now)), {
    onLeft: invalid,
    onRight: () => builtTransactionJson(rawFor(state, contract, now), visible)
  })

const read = <A>(fields: Either.Either<A, ErrorReply>, f: (fields: A) => unknown): unknown =>
  Either.match(fields, { onLeft: (error) => error, onRight: f })

export const freezeBalanceV2: Build = (state, body, visible, now) =>
  read(
    Either.all({ owner: addressField(body, "owner_address", visible), balance: intField(body, "frozen_balance"), resource: resourceField(body) }),
    ({ balance, owner, resource }) => {
      const value = { owner_address: owner, ...amount("frozen_balance", balance), ...withResource(resource) }
      const contract = { type: "FreezeBalanceV2Contract", parameter: { value, type_url: "type.googleapis.com/protocol.FreezeBalanceV2Contract" } } as const
      return built(state, visible, now, contract, (world) => freezeV2(world, value))
    }
  )

export const unfreezeBalanceV2: Build = (state, body, visible, now) =>
  read(
    Either.all({ owner: addressField(body, "owner_address", visible), balance: intField(body, "unfreeze_balance"), resource: resourceField(body) }),
    ({ balance, owner, resource }) => {
      const value = { owner_address: owner, ...amount("unfreeze_balance", balance), ...withResource(resource) }
      const contract = { type: "UnfreezeBalanceV2Contract", parameter: { value, type_url: "type.googleapis.com/protocol.UnfreezeBalanceV2Contract" } } as const
      return built(state, visible, now, contract, (world) => unfreezeV2(world, value, now))
    }
  )

const delegationFields = (body: Body, visible: boolean) =>
  Either.all({
    owner: addressField(body, "owner_address", visible),
    receiver: addressField(body, "receiver_address", visible),
    balance: intField(body, "balance"),
    resource: resourceField(body)
  })

/** java-tron reads `lock` as a boolean; `lock_period` only counts with `lock: true`. */
const lockOf = (body: Body) => body["lock"] === true || body["lock"] === "true"

export const delegateResource: Build = (state, body, visible, now) =>
  read(Either.all({ fields: delegationFields(body, visible), lockPeriod: intField(body, "lock_period") }), ({ fields, lockPeriod }) => {
    const lock = lockOf(body)
    const value: TransactionRaw.DelegateResourceContract = {
      owner_address: fields.owner,
      ...withResource(fields.resource),
      ...amount("balance", fields.balance),
      receiver_address: fields.receiver,
      ...(lock ? { lock: true, ...amount("lock_period", lockPeriod) } : {})
    }
    const contract = { type: "DelegateResourceContract", parameter: { value, type_url: "type.googleapis.com/protocol.DelegateResourceContract" } } as const
    return built(state, visible, now, contract, (world) => delegate(world, value, state.parameters, now))
  })

export const unDelegateResource: Build = (state, body, visible, now) =>
  read(delegationFields(body, visible), (fields) => {
    const value: TransactionRaw.UnDelegateResourceContract = {
      owner_address: fields.owner,
      ...withResource(fields.resource),
      ...amount("balance", fields.balance),
      receiver_address: fields.receiver
    }
    const contract = { type: "UnDelegateResourceContract", parameter: { value, type_url: "type.googleapis.com/protocol.UnDelegateResourceContract" } } as const
    return built(state, visible, now, contract, (world) => undelegate(world, value, now))
  })

