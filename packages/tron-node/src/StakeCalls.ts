import { Chain } from "@collector/core"
import { TransactionId, TransactionRaw, TronAddress } from "@collector/tron"
import { Effect, Either, Option } from "effect"
import type { NodeClient } from "./NodeClient.js"
import { callNode } from "./NodeReply.js"
import { CanDelegateReply, DelegatedResourceReply, EnergyStakeReply, StakeBuiltReply, StakeTotalsReply } from "./NodeResponses.js"

const rejected = (reason: string) => new Chain.ChainRejected({ reason })

const hex21 = (address: string) =>
  Option.match(TronAddress.isValidTronAddress(address) ? TronAddress.toHex(address) : Option.none(), {
    onNone: () => Effect.fail(rejected(`not a TRON address: ${address}`)),
    onSome: (hex) => Effect.succeed(hex.toLowerCase())
  })

const int64 = (value: TransactionRaw.Int64 | undefined): bigint => BigInt(value ?? 0)

type LoanContract = "DelegateResourceContract" | "UnDelegateResourceContract"

/** Which field carries the amount in each own-stake contract. */
const ownStakeContracts = {
  FreezeBalanceV2Contract: { path: "/wallet/freezebalancev2", amountField: "frozen_balance" },
  UnfreezeBalanceV2Contract: { path: "/wallet/unfreezebalancev2", amountField: "unfreeze_balance" }
} as const
type OwnStakeContract = keyof typeof ownStakeContracts

/**
 * Stake 2.0 through the node: the network's stake totals, what an owner may still lend and
 * has lent, and the lending and reclaiming transactions, each checked to be exactly the loan
 * asked for before it is handed back to be signed. Addresses are Base58Check (`visible`).
 */
export const makeStakeCalls = (node: NodeClient) => {
  const stakeTotals = (address: string) =>
    Effect.gen(function*() {
      yield* hex21(address)
      const reply = yield* callNode(node, "/wallet/getaccountresource", { address, visible: true }, StakeTotalsReply)
      return { totalEnergyLimit: reply.TotalEnergyLimit, totalEnergyWeight: reply.TotalEnergyWeight }
    })

  const energyStake = (owner: string) =>
    Effect.gen(function*() {
      yield* hex21(owner)
      const reply = yield* callNode(node, "/wallet/getaccount", { address: owner, visible: true }, EnergyStakeReply)
      const kept = reply.frozenV2.reduce((sum, entry) => sum + (entry.type === "ENERGY" ? entry.amount : 0n), 0n)
      const lent = reply.account_resource.delegated_frozenV2_balance_for_energy
      return { staked: kept + lent, lent }
    })

  const delegatableEnergyStake = (owner: string) =>
    Effect.gen(function*() {
      yield* hex21(owner)
      const reply = yield* callNode(node, "/wallet/getcandelegatedmaxsize", { owner_address: owner, type: 1, visible: true }, CanDelegateReply)
      return reply.max_size
    })

  const lentEnergyStake = (loan: { readonly owner: string; readonly receiver: string }) =>
    Effect.gen(function*() {
      yield* hex21(loan.owner)
      yield* hex21(loan.receiver)
      const reply = yield* callNode(
        node,
        "/wallet/getdelegatedresourcev2",
        { fromAddress: loan.owner, toAddress: loan.receiver, visible: true },
        DelegatedResourceReply
      )
      return reply.delegatedResource.reduce((sum, entry) => sum + entry.frozen_balance_for_energy, 0n)
    })

  const build = (type: LoanContract, path: "/wallet/delegateresource" | "/wallet/undelegateresource") => (loan: Chain.EnergyStakeLoan, expiration?: Date) =>
    Effect.gen(function*() {
      const owner = yield* hex21(loan.owner)
      const receiver = yield* hex21(loan.receiver)
      if (loan.balance <= 0n || loan.balance > BigInt(Number.MAX_SAFE_INTEGER)) return yield* rejected(`stake out of range: ${loan.balance}`)
      const body = { owner_address: loan.owner, receiver_address: loan.receiver, balance: Number(loan.balance), resource: "ENERGY", visible: true }
      const reply = yield* callNode(node, path, type === "DelegateResourceContract" ? { ...body, lock: false } : body, StakeBuiltReply)
      const rawDataHex = reply.raw_data_hex.toLowerCase()
      const txid = reply.txID.toLowerCase()
      if (TransactionId.compute(Buffer.from(rawDataHex, "hex")) !== txid) return yield* rejected(`${path}: txID ${txid} is not the hash of raw_data_hex`)
      const raw = yield* Either.mapLeft(TransactionRaw.decodeRawDataHex(rawDataHex), (error) => rejected(`${path}: raw_data_hex does not decode: ${error.reason}`))
      const contract = raw.contract[0]!
      if (contract.type !== type) return yield* rejected(`${path}: raw_data_hex is not a single ${type}`)
      const value = contract.parameter.value as TransactionRaw.DelegateResourceContract
      if (
        value.owner_address.toLowerCase() !== owner || value.receiver_address.toLowerCase() !== receiver || int64(value.balance) !== loan.balance ||
        value.resource !== "ENERGY" || value.lock === true
      ) {
        return yield* rejected(`${path}: the built transaction is not the requested loan of ${loan.balance} SUN to ${loan.receiver}`)
      }
      if (expiration === undefined) return { txid, rawDataHex, expiration: new Date(Number(raw.expiration)), feeLimit: 0n } satisfies Chain.UnsignedTransaction
      const millis = expiration.getTime()
      if (!Number.isSafeInteger(millis) || millis <= 0) return yield* rejected(`expiration out of range: ${expiration}`)
      const bytes = yield* Either.mapLeft(
        TransactionRaw.encodeRawData({ ...raw, expiration: BigInt(millis) }),
        (error) => rejected(`could not re-encode the loan with a new expiration: ${error.reason}`)
      )
      return { txid: TransactionId.compute(bytes), rawDataHex: Buffer.from(bytes).toString("hex"), expiration, feeLimit: 0n } satisfies Chain.UnsignedTransaction
    })

  /**
   * Staking and unstaking the owner's own TRX. Checked like a loan: the txid must be the hash of
   * the raw data and the decoded contract exactly the ask, so a node cannot get a different
   * amount, resource or owner signed. The proto leaves `resource` out for BANDWIDTH (its 0).
   */
  const buildOwn = (type: OwnStakeContract) => (stake: Chain.OwnStake) =>
    Effect.gen(function*() {
      const { amountField, path } = ownStakeContracts[type]
      const owner = yield* hex21(stake.owner)
      if (stake.balance <= 0n || stake.balance > BigInt(Number.MAX_SAFE_INTEGER)) return yield* rejected(`stake out of range: ${stake.balance}`)
      const body = { owner_address: stake.owner, [amountField]: Number(stake.balance), resource: stake.resource, visible: true }
      const reply = yield* callNode(node, path, body, StakeBuiltReply)
      const rawDataHex = reply.raw_data_hex.toLowerCase()
      const txid = reply.txID.toLowerCase()
      if (TransactionId.compute(Buffer.from(rawDataHex, "hex")) !== txid) return yield* rejected(`${path}: txID ${txid} is not the hash of raw_data_hex`)
      const raw = yield* Either.mapLeft(TransactionRaw.decodeRawDataHex(rawDataHex), (error) => rejected(`${path}: raw_data_hex does not decode: ${error.reason}`))
      const contract = raw.contract[0]!
      if (raw.contract.length !== 1 || contract.type !== type) return yield* rejected(`${path}: raw_data_hex is not a single ${type}`)
      const value = contract.parameter.value as TransactionRaw.FreezeBalanceV2Contract & TransactionRaw.UnfreezeBalanceV2Contract
      const amount = int64(type === "FreezeBalanceV2Contract" ? value.frozen_balance : value.unfreeze_balance)
      if (value.owner_address.toLowerCase() !== owner || amount !== stake.balance || (value.resource ?? "BANDWIDTH") !== stake.resource) {
        return yield* rejected(`${path}: the built transaction is not the requested ${stake.balance} SUN for ${stake.resource} of ${stake.owner}`)
      }
      return { txid, rawDataHex, expiration: new Date(Number(raw.expiration)), feeLimit: 0n } satisfies Chain.UnsignedTransaction
    })

  return {
    stakeTotals,
    energyStake,
    delegatableEnergyStake,
    lentEnergyStake,
    buildEnergyLoan: build("DelegateResourceContract", "/wallet/delegateresource"),
    buildEnergyReclaim: build("UnDelegateResourceContract", "/wallet/undelegateresource"),
    buildStake: buildOwn("FreezeBalanceV2Contract"),
    buildUnstake: buildOwn("UnfreezeBalanceV2Contract")
  }
}
