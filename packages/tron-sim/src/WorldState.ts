import { HashMap, Option } from "effect"
import type { SimAccount } from "./SimAccount"

/**
 * The chain's state after some block: activated accounts and the USDT contract's balances,
 * both keyed by 21-byte hex address. Immutable maps share structure, so every block can keep
 * its own snapshot cheaply: the solidified view and a reorganisation read an older one.
 */
export interface WorldState {
  readonly accounts: HashMap.HashMap<string, SimAccount>
  readonly usdt: HashMap.HashMap<string, bigint>
}

export const emptyWorld: WorldState = { accounts: HashMap.empty(), usdt: HashMap.empty() }

export const account = (world: WorldState, address: string): Option.Option<SimAccount> => HashMap.get(world.accounts, address)

export const isActivated = (world: WorldState, address: string): boolean => HashMap.has(world.accounts, address)

export const putAccount = (world: WorldState, next: SimAccount): WorldState => ({
  ...world,
  accounts: HashMap.set(world.accounts, next.address, next)
})

export const usdtBalance = (world: WorldState, address: string): bigint =>
  Option.getOrElse(HashMap.get(world.usdt, address), () => 0n)

/** A zero balance is removed, as an EVM storage slot set to zero is. */
export const setUsdtBalance = (world: WorldState, address: string, balance: bigint): WorldState => ({
  ...world,
  usdt: balance === 0n ? HashMap.remove(world.usdt, address) : HashMap.set(world.usdt, address, balance)
})
