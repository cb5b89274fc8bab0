import type { Receipt } from "../chain/ChainModel.js"
import type { EnergyDelegation } from "../delegation/EnergyDelegation.js"
import type { SweepTask } from "../sweeps/SweepTask.js"
import type { EnergyBySource, FeeEntry } from "./FeeEntry.js"

/** What the ledger needs to know of a finished task to book it. */
export interface FeeFacts {
  readonly task: SweepTask
  /** The receipt of the task's transaction, read from the chain. */
  readonly receipt: Receipt
  /** The task's delegation of the own stake, if it had one. */
  readonly delegation: EnergyDelegation | null
  /** The receipts of that delegation's delegating and reclaiming transactions (none when it never reached the chain). */
  readonly lendingReceipts: ReadonlyArray<Receipt>
  /** SUN per energy in force when booked (chain parameters' energy fee); positive. */
  readonly energyPrice: bigint
  readonly bookedAt: Date
}

const min = (a: bigint, b: bigint) => (a < b ? a : b)

/**
 * Only a delegation that reached the wallet lent energy: `planned` or `broadcast` may never have
 * landed, and `reclaimed` without a reclaim transaction is the mark of one that never did.
 */
const lent = (delegation: EnergyDelegation | null): bigint => {
  if (delegation === null) return 0n
  if (delegation.state === "confirmed" || delegation.state === "reclaim_broadcast") return delegation.energy
  if (delegation.state === "reclaimed" && delegation.reclaimTxid !== null) return delegation.energy
  return 0n
}

/** A rental lent energy once the provider delivered it (all of it, or part of it: the chain used what came). */
const rented = (task: SweepTask): bigint =>
  task.rental !== null && (task.rental.state === "delivered" || task.rental.state === "under_delivered") ? task.rental.quantity : 0n

/**
 * Splits the energy a transaction used by where it came from. The receipt says how much was used
 * in all and how much TRX was burned for energy; burned energy is that fee at the price. The rest
 * came from the wallet's resources, which the delegation and the rental were added to only because
 * the wallet lacked its own: they are counted first (delegated, then rented), each up to what it
 * lent, and what is left was the wallet's own.
 */
export const splitEnergy = (facts: FeeFacts): EnergyBySource => {
  const used = facts.receipt.energyUsage
  // A price raised since the block could make the fee look like more energy than was used.
  const burned = facts.energyPrice > 0n ? min(used, facts.receipt.energyFee / facts.energyPrice) : 0n
  const fromResources = used - burned
  const delegated = min(lent(facts.delegation), fromResources)
  const rentedEnergy = min(rented(facts.task), fromResources - delegated)
  return { own: fromResources - delegated - rentedEnergy, delegated, rented: rentedEnergy, burned }
}

/**
 * The ledger entry of a finished task whose transaction is on chain. What was paid for energy is
 * the TRX burned for it, the provider's charges (energy and activation) and what the resource
 * account burned to lend it and take it back; the sweep's own bandwidth is left out of the
 * saving, as every path pays it alike.
 */
export const feeEntry = (facts: FeeFacts): FeeEntry => {
  const { receipt, task } = facts
  const energy = splitEnergy(facts)
  const providerEnergyCost = task.rental?.paidCost ?? 0n
  const providerActivationCost = task.rental?.activationCost ?? 0n
  const burnEquivalent = receipt.energyUsage * facts.energyPrice
  const lendingFee = facts.lendingReceipts.reduce((sum, r) => sum + r.fee, 0n)
  return {
    taskId: task.id,
    tenantId: task.tenantId,
    network: task.network,
    walletId: task.walletId,
    txid: receipt.txid,
    blockNumber: receipt.blockNumber,
    blockTime: receipt.blockTime,
    energy,
    networkEnergyFee: receipt.energyFee,
    networkBandwidthFee: receipt.bandwidthFee,
    providerEnergyCost,
    providerActivationCost,
    lendingFee,
    energyPrice: facts.energyPrice,
    burnEquivalent,
    saving: burnEquivalent - receipt.energyFee - providerEnergyCost - providerActivationCost - lendingFee,
    bookedAt: facts.bookedAt
  }
}
