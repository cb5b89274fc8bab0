import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { SweepTaskId } from "../sweeps/SweepTask.js"

/** Where the energy a sweep's transaction used came from. */
export type EnergySource = "own" | "delegated" | "rented" | "burned"

export const energySources: ReadonlyArray<EnergySource> = ["own", "delegated", "rented", "burned"]

/** Energy by source; the four add up to what the transaction used. */
export interface EnergyBySource {
  readonly own: bigint
  readonly delegated: bigint
  readonly rented: bigint
  readonly burned: bigint
}

/**
 * What one finished sweep's transaction cost, booked once per task (`FeeSplit.ts` decides the
 * figures). All amounts are SUN.
 */
export interface FeeEntry {
  readonly taskId: SweepTaskId
  readonly tenantId: TenantId
  readonly network: Network
  readonly walletId: WalletId
  readonly txid: string
  readonly blockNumber: bigint
  readonly blockTime: Date
  readonly energy: EnergyBySource
  /** TRX burned for the transaction's energy (the receipt's energy fee). */
  readonly networkEnergyFee: bigint
  /** TRX burned for its bandwidth (the receipt's bandwidth fee). */
  readonly networkBandwidthFee: bigint
  /** Paid to the rental provider for energy. */
  readonly providerEnergyCost: bigint
  /** Paid to the rental provider for activating the wallet. */
  readonly providerActivationCost: bigint
  /**
   * TRX the resource account burned to lend this sweep its energy: the fees on the receipts of
   * its delegating and reclaiming transactions (their bandwidth, once its free bandwidth is used).
   */
  readonly lendingFee: bigint
  /** SUN per energy when the entry was booked (the chain parameters' energy fee). */
  readonly energyPrice: bigint
  /** Every unit of energy used, burned at `energyPrice`. */
  readonly burnEquivalent: bigint
  /** `burnEquivalent` minus what was paid for energy (burned, provider, lending); negative when dearer than burning. */
  readonly saving: bigint
  readonly bookedAt: Date
}

/** Sums of a tenant's entries on one network over a period. */
export interface FeeTotals {
  readonly entries: number
  readonly energy: EnergyBySource
  readonly networkEnergyFee: bigint
  readonly networkBandwidthFee: bigint
  readonly providerEnergyCost: bigint
  readonly providerActivationCost: bigint
  readonly lendingFee: bigint
  readonly burnEquivalent: bigint
  readonly saving: bigint
}
