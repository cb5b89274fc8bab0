import { HashMap, Option } from "effect"
import type { DelegatedResource, WorldState } from "./WorldState.js"

/**
 * The Stake 2.0 delegation records of the world (java-tron's DelegatedResourceStore, V2 keys,
 * unlocked part): one per owner and receiver, holding the SUN of the owner's stake whose
 * energy and bandwidth the receiver uses. A record that falls to zero is removed, as java-tron
 * deletes it, so `getdelegatedresourcev2` stops listing the pair.
 */

const key = (from: string, to: string) => `${from}/${to}`

export const delegation = (world: WorldState, from: string, to: string): Option.Option<DelegatedResource> =>
  HashMap.get(world.delegations, key(from, to))

/** Adds `energy` and `bandwidth` (either may be negative) to the pair's record. */
export const addDelegation = (world: WorldState, from: string, to: string, energy: bigint, bandwidth: bigint): WorldState => {
  const current = Option.getOrElse(delegation(world, from, to), () => ({ from, to, energy: 0n, bandwidth: 0n }))
  const next = { ...current, energy: current.energy + energy, bandwidth: current.bandwidth + bandwidth }
  const k = key(from, to)
  return {
    ...world,
    delegations: next.energy === 0n && next.bandwidth === 0n ? HashMap.remove(world.delegations, k) : HashMap.set(world.delegations, k, next)
  }
}

/** Receivers `address` delegates to, and owners that delegate to it (`getdelegatedresourceaccountindexv2`), sorted by hex. */
export const delegationIndex = (world: WorldState, address: string): { readonly to: ReadonlyArray<string>; readonly from: ReadonlyArray<string> } => {
  const records = [...HashMap.values(world.delegations)]
  return {
    to: records.filter((record) => record.from === address).map((record) => record.to).sort(),
    from: records.filter((record) => record.to === address).map((record) => record.from).sort()
  }
}
