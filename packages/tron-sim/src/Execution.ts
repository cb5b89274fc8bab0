import { type TransactionRaw, TronAddress } from "@collector/tron"
import { Either, Option } from "effect"
import { payBandwidth } from "./Bandwidth.js"
import { delegate, undelegate } from "./Delegation.js"
import { adjustBalance, newAccount, type SimAccount } from "./SimAccount.js"
import { isContract, type SimConfig, type SimParameters } from "./SimConfig.js"
import { rejected, type TransactionRejected } from "./SimErrors.js"
import { bandwidthBytes, contractOf, feeLimitOf, ownerOf, type SimTransaction } from "./SimTransaction.js"
import { emptyReceipt, type ExecutedInfo } from "./SimTransactionInfo.js"
import { payAndRun, validateCall } from "./SmartContractCall.js"
import { freezeV2, unfreezeV2 } from "./Staking.js"
import { account, isActivated, putAccount, type WorldState } from "./WorldState.js"

/**
 * Applies one transaction to the state, in java-tron's order: the owner must exist, bandwidth
 * is paid, then the contract is validated and run. A Left is a transaction the node refuses
 * (at broadcast) or leaves out of a block; a Right is included, even when its call failed.
 *
 * System transactions (the control surface's injected transfers, mints and delegations, from
 * addresses whose keys the simulator lacks) pay nothing and may come from outside accounts.
 * Stake 2.0 contracts signed by accounts of the simulation follow Staking.ts and Delegation.ts.
 */

export interface ExecutionContext {
  readonly config: SimConfig
  readonly parameters: SimParameters
  /** 21-byte hex of the USDT issuer, the one address allowed to mint. */
  readonly issuer: string
  /** The block's timestamp, or the time of a broadcast. */
  readonly now: number
  readonly system: boolean
}

export interface Executed {
  readonly world: WorldState
  readonly info: ExecutedInfo
}

const base58 = (hex: string) => Option.getOrElse(TronAddress.fromHex(hex), () => hex)

const createsAccount = (world: WorldState, contract: TransactionRaw.Contract) =>
  contract.type === "TransferContract" && !isActivated(world, contract.parameter.value.to_address.toLowerCase())

export const execute = (world: WorldState, tx: SimTransaction, context: ExecutionContext): Either.Either<Executed, TransactionRejected> =>
  Either.gen(function*() {
    const contract = contractOf(tx)
    const owner = ownerOf(tx)
    const found = account(world, owner)
    let payer: SimAccount | undefined = undefined
    let net = { netUsage: 0n, netFee: 0n }
    if (!context.system) {
      if (Option.isNone(found)) return yield* Either.left(rejected.contractValidate(`account [${base58(owner)}] does not exist`))
      const paid = yield* payBandwidth(found.value, bandwidthBytes(tx), createsAccount(world, contract), context.parameters, context.now)
      payer = paid.account
      net = { netUsage: paid.netUsage, netFee: paid.netFee }
    } else {
      payer = Option.getOrUndefined(found)
    }
    const ran = yield* runContract(world, tx, owner, payer, context)
    const info: ExecutedInfo = {
      ...ran.info,
      id: tx.txid,
      fee: ran.info.fee + net.netFee,
      receipt: { ...ran.info.receipt, ...net }
    }
    return { world: ran.world, info }
  })

const systemInfo: Omit<ExecutedInfo, "id"> = { fee: 0n, contractResult: [""], receipt: emptyReceipt, logs: [], contractRet: "SUCCESS" }

const runContract = (
  world: WorldState,
  tx: SimTransaction,
  owner: string,
  payer: SimAccount | undefined,
  context: ExecutionContext
): Either.Either<{ readonly world: WorldState; readonly info: Omit<ExecutedInfo, "id"> }, TransactionRejected> => {
  const contract = contractOf(tx)
  const withPayer = payer === undefined ? world : putAccount(world, payer)
  switch (contract.type) {
    case "TransferContract":
      return transferTrx(withPayer, owner, contract.parameter.value, context)
    case "TriggerSmartContract": {
      const value = contract.parameter.value
      const feeLimit = feeLimitOf(tx)
      return Either.map(validateCall(value, feeLimit, context.config, context.parameters), () =>
        payAndRun(withPayer, { address: owner, account: context.system ? undefined : payer }, value, feeLimit, context))
    }
    case "FreezeBalanceV2Contract":
      return staked(freezeV2(withPayer, contract.parameter.value))
    case "UnfreezeBalanceV2Contract":
      return staked(unfreezeV2(withPayer, contract.parameter.value, context.now))
    case "DelegateResourceContract":
      return context.system ? providerDelegation(withPayer, contract) : staked(delegate(withPayer, contract.parameter.value, context.parameters, context.now))
    case "UnDelegateResourceContract":
      return context.system ? providerDelegation(withPayer, contract) : staked(undelegate(withPayer, contract.parameter.value, context.now))
  }
}

/** A Stake 2.0 contract's outcome: its validation text becomes CONTRACT_VALIDATE_ERROR, as java-tron's actuators throw it. */
const staked = (result: Either.Either<WorldState, string>) =>
  Either.mapBoth(result, { onLeft: rejected.contractValidate, onRight: (world) => ({ world, info: systemInfo }) })

/**
 * A rental provider's delegation (the control surface's, from an outside address with no
 * account here): only the receiver's delegated-in stake changes; reclaiming more than was
 * given leaves none.
 */
const providerDelegation = (
  world: WorldState,
  contract: Extract<TransactionRaw.Contract, { type: "DelegateResourceContract" | "UnDelegateResourceContract" }>
): Either.Either<{ readonly world: WorldState; readonly info: Omit<ExecutedInfo, "id"> }, TransactionRejected> => {
  const value = contract.parameter.value
  const receiver = account(world, value.receiver_address.toLowerCase())
  if (Option.isNone(receiver)) return Either.left(rejected.contractValidate(`Account [${base58(value.receiver_address)}] does not exist`))
  const amount = BigInt(value.balance ?? 0)
  const current = receiver.value.delegatedEnergyBalance
  const delegated = contract.type === "DelegateResourceContract" ? current + amount : current > amount ? current - amount : 0n
  return Either.right({ world: putAccount(world, { ...receiver.value, delegatedEnergyBalance: delegated }), info: systemInfo })
}

const transferTrx = (
  world: WorldState,
  owner: string,
  value: TransactionRaw.TransferContract,
  context: ExecutionContext
): Either.Either<{ readonly world: WorldState; readonly info: Omit<ExecutedInfo, "id"> }, TransactionRejected> => {
  const to = value.to_address.toLowerCase()
  const amount = BigInt(value.amount ?? 0)
  if (amount <= 0n) return Either.left(rejected.contractValidate("Amount must be greater than 0."))
  if (to === owner) return Either.left(rejected.contractValidate("Cannot transfer TRX to yourself."))
  if (isContract(context.config, to)) return Either.left(rejected.contractValidate("Cannot transfer TRX to a smartContract."))
  const creating = !isActivated(world, to)
  const fee = creating && !context.system ? context.parameters.createNewAccountFeeInSystemContract : 0n
  const from = account(world, owner)
  // A system transfer from an outside address (a faucet, an exchange) is not debited.
  if (Option.isSome(from) && from.value.balance < amount + fee) {
    return Either.left(rejected.contractValidate("Validate TransferContract error, balance is not sufficient."))
  }
  const debited = Option.isSome(from) ? putAccount(world, adjustBalance(from.value, -(amount + fee))) : world
  const recipient = Option.getOrElse(account(debited, to), () => newAccount(to, context.now))
  return Either.right({
    world: putAccount(debited, adjustBalance(recipient, amount)),
    info: { ...systemInfo, fee }
  })
}
