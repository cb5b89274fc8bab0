import { HashMap, HashSet, Option } from "effect"
import type { SimAccount } from "./SimAccount.js"

/**
 * The chain's state after some block: activated accounts, and the balances each TRC20 contract
 * (USDT, the other token) holds, keyed by 21-byte hex contract then holder address. Immutable maps share structure, so every block can keep
 * its own snapshot cheaply: the solidified view and a reorganisation read an older one.
 */
export interface WorldState {
  readonly accounts: HashMap.HashMap<string, SimAccount>
  readonly tokens: HashMap.HashMap<string, HashMap.HashMap<string, bigint>>
  /** Addresses on a token's freeze list (Tether's blacklist), as `contract/address` (both hex). */
  readonly blackListed: HashSet.HashSet<string>
  /** Stake 2.0 delegations made by accounts of the simulation, keyed `from/to` (both hex): see DelegationRecords.ts. */
  readonly delegations: HashMap.HashMap<string, DelegatedResource>
}

/** What `from` has delegated to `to`, in SUN of `from`'s stake (java-tron's DelegatedResourceCapsule, V2, unlocked). */
export interface DelegatedResource {
  readonly from: string
  readonly to: string
  readonly energy: bigint
  readonly bandwidth: bigint
}

export const emptyWorld: WorldState = { accounts: HashMap.empty(), tokens: HashMap.empty(), blackListed: HashSet.empty(), delegations: HashMap.empty() }

const listKey = (contract: string, address: string) => `${contract}/${address}`

/** Whether the token at `contract` has frozen `address` (both 21-byte hex). */
export const isBlackListed = (world: WorldState, contract: string, address: string): boolean =>
  HashSet.has(world.blackListed, listKey(contract, address))

export const setBlackListed = (world: WorldState, contract: string, address: string, listed: boolean): WorldState => ({
  ...world,
  blackListed: listed ? HashSet.add(world.blackListed, listKey(contract, address)) : HashSet.remove(world.blackListed, listKey(contract, address))
})

export const account = (world: WorldState, address: string): Option.Option<SimAccount> => HashMap.get(world.accounts, address)

export const isActivated = (world: WorldState, address: string): boolean => HashMap.has(world.accounts, address)

export const putAccount = (world: WorldState, next: SimAccount): WorldState => ({
  ...world,
  accounts: HashMap.set(world.accounts, next.address, next)
})

const holders = (world: WorldState, contract: string): HashMap.HashMap<string, bigint> =>
  Option.getOrElse(HashMap.get(world.tokens, contract), () => HashMap.empty<string, bigint>())

/** What `address` holds of the token at `contract` (both 21-byte hex). */
export const tokenBalance = (world: WorldState, contract: string, address: string): bigint =>
  Option.getOrElse(HashMap.get(holders(world, contract), address), () => 0n)

/** A zero balance is removed, as an EVM storage slot set to zero is. */
export const setTokenBalance = (world: WorldState, contract: string, address: string, balance: bigint): WorldState => {
  const current = holders(world, contract)
  return { ...world, tokens: HashMap.set(world.tokens, contract, balance === 0n ? HashMap.remove(current, address) : HashMap.set(current, address, balance)) }
}
