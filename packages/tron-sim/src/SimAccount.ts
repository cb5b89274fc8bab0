import { available, increased, recovered } from "./ResourceWindow.js"
import type { SimParameters } from "./SimConfig.js"

/**
 * An activated account, with the fields java-tron keeps for it. Only activated accounts exist
 * on chain: an address that merely holds USDT has a balance in the contract's storage and no
 * account at all. Usages are recorded values; what is left now follows from ResourceWindow.
 */
export interface SimAccount {
  /** 21-byte hex (`41…`). */
  readonly address: string
  /** SUN. */
  readonly balance: bigint
  readonly createTime: number
  readonly latestOperationTime: number
  readonly freeNetUsage: bigint
  readonly latestConsumeFreeTime: number
  /** Bandwidth used from staked (own or delegated-in) bandwidth, and when (`net_usage`, `latest_consume_time`). */
  readonly netUsage: bigint
  readonly latestConsumeTime: number
  readonly energyUsage: bigint
  readonly latestConsumeTimeForEnergy: number
  /** SUN staked by others whose energy is delegated here (`acquired_delegated_frozenV2_balance_for_energy`). */
  readonly delegatedEnergyBalance: bigint
  /** Stake 2.0: SUN this account staked and has not delegated (`frozenV2` amounts), by resource. */
  readonly frozenEnergy: bigint
  readonly frozenBandwidth: bigint
  /** SUN of its own stake delegated to others (`delegated_frozenV2_balance_for_energy` / `_for_bandwidth`). */
  readonly delegatedOutEnergy: bigint
  readonly delegatedOutBandwidth: bigint
  /** SUN staked by others whose bandwidth is delegated here (`acquired_delegated_frozenV2_balance_for_bandwidth`). */
  readonly acquiredBandwidthBalance: bigint
  /** Stake being released (`unfrozenV2`): withdrawable after the unfreeze delay (withdrawing is not modelled). */
  readonly unfrozen: ReadonlyArray<Unfreezing>
}

export interface Unfreezing {
  readonly resource: "BANDWIDTH" | "ENERGY"
  /** SUN. */
  readonly amount: bigint
  /** Milliseconds: when the TRX may be withdrawn. */
  readonly expireTime: number
}

export const newAccount = (address: string, now: number, balance = 0n): SimAccount => ({
  address,
  balance,
  createTime: now,
  latestOperationTime: now,
  freeNetUsage: 0n,
  latestConsumeFreeTime: 0,
  netUsage: 0n,
  latestConsumeTime: 0,
  energyUsage: 0n,
  latestConsumeTimeForEnergy: 0,
  delegatedEnergyBalance: 0n,
  frozenEnergy: 0n,
  frozenBandwidth: 0n,
  delegatedOutEnergy: 0n,
  delegatedOutBandwidth: 0n,
  acquiredBandwidthBalance: 0n,
  unfrozen: []
})

export const sunPerTrx = 1_000_000n

/**
 * java-tron's calculateGlobalEnergyLimit: the whole TRX behind the account's energy (its own
 * stake not delegated away, plus what others delegated to it) times the network's energy per
 * TRX, TotalEnergyLimit / TotalEnergyWeight. Stake delegated out is no longer the owner's.
 */
export const energyLimit = (account: SimAccount, parameters: SimParameters): bigint =>
  (((account.frozenEnergy + account.delegatedEnergyBalance) / sunPerTrx) * parameters.totalEnergyLimit) / parameters.totalEnergyWeight

/**
 * The SUN of stake that `energy` units of usage stand for, as java-tron converts usage before
 * it lets an owner delegate or reclaim (usage × 10^6 × TotalEnergyWeight / TotalEnergyLimit,
 * truncated like its cast to long).
 */
export const energyUsageInSun = (energy: bigint, parameters: SimParameters): bigint =>
  (energy * sunPerTrx * parameters.totalEnergyWeight) / parameters.totalEnergyLimit

/** The SUN that must be staked (and delegated) for at least `energy` energy: how a provider sizes an order. */
export const stakeForEnergy = (energy: bigint, parameters: SimParameters): bigint => {
  const trx = (energy * parameters.totalEnergyWeight + parameters.totalEnergyLimit - 1n) / parameters.totalEnergyLimit
  return trx * sunPerTrx
}

export const energyUsed = (account: SimAccount, now: number): bigint =>
  recovered(account.energyUsage, account.latestConsumeTimeForEnergy, now)

export const energyLeft = (account: SimAccount, parameters: SimParameters, now: number): bigint =>
  available(energyLimit(account, parameters), account.energyUsage, account.latestConsumeTimeForEnergy, now)

export const freeNetUsed = (account: SimAccount, now: number): bigint =>
  recovered(account.freeNetUsage, account.latestConsumeFreeTime, now)

export const freeNetLeft = (account: SimAccount, parameters: SimParameters, now: number): bigint =>
  available(parameters.freeNetLimit, account.freeNetUsage, account.latestConsumeFreeTime, now)

/** java-tron's calculateGlobalNetLimit: whole TRX staked for bandwidth (own, not delegated away, plus delegated-in) times TotalNetLimit / TotalNetWeight. */
export const netLimit = (account: SimAccount, parameters: SimParameters): bigint =>
  (((account.frozenBandwidth + account.acquiredBandwidthBalance) / sunPerTrx) * parameters.totalNetLimit) / parameters.totalNetWeight

export const netUsed = (account: SimAccount, now: number): bigint => recovered(account.netUsage, account.latestConsumeTime, now)

export const netLeft = (account: SimAccount, parameters: SimParameters, now: number): bigint =>
  available(netLimit(account, parameters), account.netUsage, account.latestConsumeTime, now)

/** The SUN of bandwidth stake that `bytes` of usage stand for (java-tron: usage × 10^6 × TotalNetWeight / TotalNetLimit). */
export const netUsageInSun = (bytes: bigint, parameters: SimParameters): bigint =>
  (bytes * sunPerTrx * parameters.totalNetWeight) / parameters.totalNetLimit

export const consumeNet = (account: SimAccount, bytes: bigint, now: number): SimAccount => ({
  ...account,
  netUsage: increased(account.netUsage, account.latestConsumeTime, bytes, now),
  latestConsumeTime: now,
  latestOperationTime: now
})

export const consumeFreeNet = (account: SimAccount, bytes: bigint, now: number): SimAccount => ({
  ...account,
  freeNetUsage: increased(account.freeNetUsage, account.latestConsumeFreeTime, bytes, now),
  latestConsumeFreeTime: now,
  latestOperationTime: now
})

export const consumeEnergy = (account: SimAccount, energy: bigint, now: number): SimAccount =>
  energy === 0n ? account : {
    ...account,
    energyUsage: increased(account.energyUsage, account.latestConsumeTimeForEnergy, energy, now),
    latestConsumeTimeForEnergy: now,
    latestOperationTime: now
  }

export const adjustBalance = (account: SimAccount, delta: bigint): SimAccount => ({ ...account, balance: account.balance + delta })
