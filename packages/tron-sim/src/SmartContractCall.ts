import type { TransactionRaw } from "@collector/tron"
import { Either } from "effect"
import { adjustBalance, consumeEnergy, energyLeft, type SimAccount } from "./SimAccount.js"
import { isContract, type SimConfig, type SimParameters } from "./SimConfig.js"
import { rejected, type TransactionRejected } from "./SimErrors.js"
import { emptyReceipt, type ExecutedInfo } from "./SimTransactionInfo.js"
import { parseCall, runCall } from "./UsdtContract.js"
import { putAccount, type WorldState } from "./WorldState.js"

/**
 * A TriggerSmartContract against one of the simulated TRC20 contracts (USDT, the other token), paid the way java-tron's VMActuator pays
 * (fixed ratio): the call may use at most min(own energy + balance / price, fee_limit / price)
 * energy, so fee_limit caps the whole call even when delegated energy would pay for it. Energy
 * comes from the caller's own (staked or delegated) energy first, the rest is burned at the
 * energy price. A call needing more than its limit fails OUT_OF_ENERGY, uses the whole limit
 * (burning up to fee_limit) and changes nothing else.
 */

type Trigger = TransactionRaw.TriggerSmartContract

export interface CallContext {
  readonly config: SimConfig
  readonly parameters: SimParameters
  readonly issuer: string
  readonly now: number
}

/** The call's effects; the info's bandwidth figures are zero, for the caller to fill in. */
export interface CallPaid {
  readonly world: WorldState
  readonly info: Omit<ExecutedInfo, "id">
}

/** Validation java-tron applies before running the call (CONTRACT_VALIDATE_ERROR). */
export const validateCall = (value: Trigger, feeLimit: bigint, config: SimConfig, parameters: SimParameters): Either.Either<void, TransactionRejected> => {
  if (!isContract(config, value.contract_address)) return Either.left(rejected.contractValidate("No contract or not a smart contract"))
  if (feeLimit < 0n || feeLimit > parameters.maxFeeLimit) {
    return Either.left(rejected.contractValidate(`feeLimit must be >= 0 and <= ${parameters.maxFeeLimit}`))
  }
  return Either.void
}

const min = (a: bigint, b: bigint) => (a < b ? a : b)

/**
 * Runs the call for `caller` (already charged for bandwidth). `caller` is None for a system
 * transaction from an address outside the simulation: its energy is taken as staked, nothing is burned.
 */
export const payAndRun = (
  world: WorldState,
  caller: { readonly address: string; readonly account: SimAccount | undefined },
  value: Trigger,
  feeLimit: bigint,
  context: CallContext
): CallPaid => {
  const { parameters, now } = context
  const call = BigInt(value.call_value ?? 0) > 0n ? { kind: "unknown" as const } : parseCall(value.data ?? "")
  const result = runCall(world, value.contract_address.toLowerCase(), caller.address, call, context.config.transferEnergy, context.issuer)
  const account = caller.account
  const price = parameters.energyFee
  const left = account === undefined ? result.energy : energyLeft(account, parameters, now)
  const limit = account === undefined ? result.energy : min(left + account.balance / price, feeLimit / price)
  const outOfEnergy = result.energy > limit
  const used = outOfEnergy ? limit : result.energy
  const fromAccount = min(left, used)
  const burned = (used - fromAccount) * price
  const succeeded = !outOfEnergy && result.outcome === "SUCCESS"
  const base = succeeded ? result.world : world
  const next = account === undefined ? base : putAccount(base, adjustBalance(consumeEnergy(account, fromAccount, now), -burned))
  const contractRet = outOfEnergy ? "OUT_OF_ENERGY" : result.outcome
  const resMessage = outOfEnergy
    ? `Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[${limit}], curOpEnergy[20000], usedEnergy[${used}]`
    : result.revertReason
  return {
    world: next,
    info: {
      fee: burned,
      contractResult: [outOfEnergy ? "" : result.returned],
      contractAddress: value.contract_address.toLowerCase(),
      receipt: {
        ...emptyReceipt,
        energyUsage: fromAccount,
        energyFee: burned,
        energyUsageTotal: used,
        // The penalty scales with the energy actually spent.
        energyPenaltyTotal: result.energy === 0n ? 0n : (result.penalty * used) / result.energy,
        result: contractRet
      },
      logs: succeeded ? result.logs : [],
      contractRet,
      ...(resMessage === undefined || succeeded ? {} : { resMessage })
    }
  }
}
