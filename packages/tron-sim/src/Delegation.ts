import type { TransactionRaw } from "@collector/tron"
import { Either, Option } from "effect"
import { addDelegation, delegation } from "./DelegationRecords.js"
import { energyUsageInSun, energyUsed, netUsageInSun, netUsed, type SimAccount, sunPerTrx } from "./SimAccount.js"
import type { SimParameters } from "./SimConfig.js"
import { existing, type StakeResource, stakeResource } from "./Staking.js"
import { putAccount, type WorldState } from "./WorldState.js"

/**
 * Stake 2.0 delegation between accounts of the simulation, java-tron's DelegateResourceActuator
 * and UnDelegateResourceActuator: the owner's staked SUN leaves its `frozenV2` for its
 * `delegated_frozenV2_balance_for_*`, the receiver's `acquired_delegated_frozenV2_balance_for_*`
 * grows by the same SUN, so the energy that stake yields is the receiver's until reclaimed.
 * A Left is java-tron's ContractValidateException text.
 *
 * Left out: locked delegations (`lock: true` is refused here, so every delegation can be
 * reclaimed at once) and delegation to contract addresses (the simulator's contracts have no
 * accounts, so java-tron's "Account[…] not exists" comes first anyway).
 */

/**
 * The owner's energy usage as SUN of its own stake (java-tron's getV2EnergyUsage): usage now,
 * converted at the network's ratio, less what delegated-in stake covers. That much of the
 * owner's frozenV2 energy is spoken for and cannot be delegated.
 */
const energyStakeInUse = (owner: SimAccount, parameters: SimParameters, now: number): bigint => {
  const inUse = energyUsageInSun(energyUsed(owner, now), parameters) - owner.delegatedEnergyBalance
  return inUse > 0n ? inUse : 0n
}

/** The same for bandwidth (java-tron's getV2NetUsage). */
const netStakeInUse = (owner: SimAccount, parameters: SimParameters, now: number): bigint => {
  const inUse = netUsageInSun(netUsed(owner, now), parameters) - owner.acquiredBandwidthBalance
  return inUse > 0n ? inUse : 0n
}

/** `getcandelegatedmaxsize`: the SUN of `resource` stake the owner may delegate now, its own stake less what its usage holds. */
export const canDelegateMaxSize = (owner: SimAccount, resource: StakeResource, parameters: SimParameters, now: number): bigint => {
  const size = resource === "BANDWIDTH"
    ? owner.frozenBandwidth - netStakeInUse(owner, parameters, now)
    : owner.frozenEnergy - energyStakeInUse(owner, parameters, now)
  return size > 0n ? size : 0n
}

const receiverOf = (value: { readonly owner_address: string; readonly receiver_address: string }): Either.Either<string, string> => {
  const receiver = value.receiver_address.toLowerCase()
  return receiver === value.owner_address.toLowerCase() ? Either.left("receiverAddress must not be the same as ownerAddress") : Either.right(receiver)
}

export const delegate = (
  world: WorldState,
  value: TransactionRaw.DelegateResourceContract,
  parameters: SimParameters,
  now: number
): Either.Either<WorldState, string> =>
  Either.gen(function*() {
    const from = value.owner_address.toLowerCase()
    const owner = yield* existing(world, from, "not exists")
    const balance = BigInt(value.balance ?? 0)
    if (balance < sunPerTrx) return yield* Either.left("delegateBalance must be greater than or equal to 1 TRX")
    const resource = yield* stakeResource(value.resource)
    if (canDelegateMaxSize(owner, resource, parameters, now) < balance) {
      return yield* Either.left(
        `delegateBalance must be less than or equal to available ${resource === "ENERGY" ? "FreezeEnergyV2" : "FreezeBandwidthV2"} balance`
      )
    }
    const to = yield* receiverOf(value)
    const receiver = yield* existing(world, to, "not exists")
    if (value.lock === true) return yield* Either.left("the simulator does not model locked delegations (lock: true)")
    const energy = resource === "ENERGY" ? balance : 0n
    const bandwidth = resource === "BANDWIDTH" ? balance : 0n
    const owned = putAccount(world, {
      ...owner,
      frozenEnergy: owner.frozenEnergy - energy,
      frozenBandwidth: owner.frozenBandwidth - bandwidth,
      delegatedOutEnergy: owner.delegatedOutEnergy + energy,
      delegatedOutBandwidth: owner.delegatedOutBandwidth + bandwidth
    })
    const received = putAccount(owned, {
      ...receiver,
      delegatedEnergyBalance: receiver.delegatedEnergyBalance + energy,
      acquiredBandwidthBalance: receiver.acquiredBandwidthBalance + bandwidth
    })
    return addDelegation(received, from, to, energy, bandwidth)
  })

/**
 * Reclaiming: the receiver's energy usage moves with the stake in proportion (java-tron's
 * transferUsage = usage × reclaimed / all the receiver's energy stake), so energy the receiver
 * burned through is not fresh again for the owner; it regenerates over the 24-hour window like
 * any usage. (java-tron merges the two usage windows by weight; here the owner's usage is
 * simply recovered to now plus the transferred part. Bandwidth usage is not moved: the
 * receiver keeps what it used, a simplification.)
 */
export const undelegate = (world: WorldState, value: TransactionRaw.UnDelegateResourceContract, now: number): Either.Either<WorldState, string> =>
  Either.gen(function*() {
    const from = value.owner_address.toLowerCase()
    const owner = yield* existing(world, from, "does not exist")
    const to = yield* receiverOf(value)
    const balance = BigInt(value.balance ?? 0)
    if (balance <= 0n) return yield* Either.left("unDelegateBalance must be more than 0 TRX")
    const resource = yield* stakeResource(value.resource)
    const record = yield* Option.match(delegation(world, from, to), {
      onNone: () => Either.left("delegated Resource does not exist"),
      onSome: Either.right
    })
    const delegated = resource === "ENERGY" ? record.energy : record.bandwidth
    if (delegated < balance) {
      return yield* Either.left(
        resource === "ENERGY"
          ? `insufficient delegateFrozenBalance(Energy), request=${balance}, unlock_balance=${delegated}`
          : `insufficient delegatedFrozenBalance(BANDWIDTH), request=${balance}, unlock_balance=${delegated}`
      )
    }
    const energy = resource === "ENERGY" ? balance : 0n
    const bandwidth = resource === "BANDWIDTH" ? balance : 0n
    // The receiver may be gone only if a contract self-destructed; the simulator has no such case, but java-tron tolerates it.
    let next = world
    let transferred = 0n
    const receiver = Option.getOrUndefined(Option.getRight(existing(world, to, "does not exist")))
    if (receiver !== undefined) {
      const stake = receiver.frozenEnergy + receiver.delegatedEnergyBalance
      const usage = energyUsed(receiver, now)
      transferred = stake > 0n ? (usage * energy) / stake : 0n
      const acquired = receiver.delegatedEnergyBalance - energy
      const acquiredBandwidth = receiver.acquiredBandwidthBalance - bandwidth
      next = putAccount(next, {
        ...receiver,
        delegatedEnergyBalance: acquired > 0n ? acquired : 0n,
        acquiredBandwidthBalance: acquiredBandwidth > 0n ? acquiredBandwidth : 0n,
        ...(energy > 0n ? { energyUsage: usage - transferred, latestConsumeTimeForEnergy: now } : {})
      })
    }
    next = putAccount(next, {
      ...owner,
      frozenEnergy: owner.frozenEnergy + energy,
      frozenBandwidth: owner.frozenBandwidth + bandwidth,
      delegatedOutEnergy: owner.delegatedOutEnergy - energy,
      delegatedOutBandwidth: owner.delegatedOutBandwidth - bandwidth,
      ...(transferred > 0n ? { energyUsage: energyUsed(owner, now) + transferred, latestConsumeTimeForEnergy: now } : {})
    })
    return addDelegation(next, from, to, -energy, -bandwidth)
  })
