import { Delegation, Kernel, Wallets } from "@collector/core"
import type { SimConfig } from "@collector/tron-sim"
import { Clock, Effect } from "effect"
import type { Dice } from "./Dice.js"

/** Energy one lending is sized for: a sweep to a receiver that holds no USDT yet (up to about 145,000), with room. */
const energyPerLending = 160_000n
const sunPerTrx = 1_000_000n
/** TRX the account holds beside its stake, for the bandwidth of its delegating and reclaiming transactions. */
const spendableTrx = 500n * sunPerTrx
/** The key store asks which wallet a key is for; a resource account is none, so an ID no wallet of a run reaches. */
const resourceKeyId = Kernel.WalletId.make("9000000000000000000")

/** The resource account of one network: its address and the SUN it has staked for energy. */
export interface OwnStake {
  readonly address: string
  readonly stakedSun: bigint
  /** How many lendings of `energyPerLending` the stake covers at once (1: a second sweep at the same time finds it short). */
  readonly lendings: number
}

/**
 * Whether a network of this run has a resource account and how much it stakes, from the seed's
 * dice: three networks in four have one, staking for 1 to 3 lendings at once, so sweeps at the
 * same time often find it short (lent to others) and the tenant's policy decides. Never less than
 * one lending: a stake that can never cover a sweep leaves a tenant who waits for it waiting forever.
 */
export const drawLendings = (dice: Dice): number | undefined => dice.chance(0.75) ? dice.int(1, 3) : undefined

/** The SUN staked for `lendings` lendings at the simulator's totals (TRX per energy, rounded up to whole TRX). */
const stakeFor = (lendings: number, parameters: SimConfig["parameters"]): bigint => {
  const energy = energyPerLending * BigInt(lendings)
  const trx = (energy * parameters.totalEnergyWeight + parameters.totalEnergyLimit - 1n) / parameters.totalEnergyLimit
  return trx * sunPerTrx
}

/**
 * A network's resource account: its key generated as a wallet's is (sealed by the key store) and
 * its stake, to be put on the simulator's genesis (`genesisAccount`) and stored through the
 * ResourceAccounts port as the network's default (`store`).
 */
export const generate = (network: Kernel.Network, lendings: number, parameters: SimConfig["parameters"]) =>
  Effect.gen(function*() {
    const key = yield* Effect.orDie(Effect.flatMap(Wallets.WalletKeys, (keys) => keys.generate(resourceKeyId)))
    const stake: OwnStake = { address: key.address, stakedSun: stakeFor(lendings, parameters), lendings }
    const store = Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      yield* Effect.orDie(Effect.flatMap(Delegation.ResourceAccounts, (accounts) => accounts.create({ network, tenantId: null, address: key.address, key: key.key, createdAt: now })))
    })
    return { stake, store }
  })

/** The account on the simulator's genesis: activated, its stake frozen for energy, TRX to spend beside it. */
export const genesisAccount = (stake: OwnStake) => ({ address: stake.address, trx: spendableTrx, stakedForEnergy: stake.stakedSun })
