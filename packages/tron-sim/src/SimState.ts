import { TronAddress } from "@collector/tron"
import { HashMap, Option } from "effect"
import { newAccount, stakeForEnergy } from "./SimAccount.js"
import { type IncludedTransaction, makeBlock, type SimBlock } from "./SimBlock.js"
import { type SimConfig, type SimParameters, usdtHex } from "./SimConfig.js"
import { type SeededKey, seededHex, seededKey, witnessCount, witnessKeys } from "./Seeded.js"
import type { SimTransaction } from "./SimTransaction.js"
import { emptyWorld, putAccount, setTokenBalance, type WorldState } from "./WorldState.js"

/**
 * The whole simulated network as one immutable value: the canonical chain (each block with the
 * state after it), the pending pool, and the knobs of the control surface. Every change is a
 * pure function from one SimState to the next; SimChain holds the current one.
 */

export interface PendingTransaction {
  readonly tx: SimTransaction
  readonly system: boolean
  /** The first block number that may include it (a delayed broadcast waits). */
  readonly notBefore: bigint
}

/** The node failing for a while: `error` answers HTTP 503, `timeout` holds requests until it ends. */
export interface Outage {
  readonly mode: "error" | "timeout"
  readonly until: number
}

export interface Faults {
  /** Broadcasts to answer with success and then lose. */
  readonly dropBroadcasts: number
  /** Blocks the next broadcast waits before it may be included; 0 for none. */
  readonly delayNextBroadcast: number
  readonly outage: Option.Option<Outage>
  /** Node API replies to carry out and then lose (the connection closes), oldest armed first. */
  readonly lostReplies: ReadonlyArray<LostReplies>
}

/** The next `remaining` replies to requests whose path starts with `path` are lost. */
export interface LostReplies {
  readonly path: string
  readonly remaining: number
}

export interface SimState {
  readonly config: SimConfig
  readonly parameters: SimParameters
  readonly witnesses: ReadonlyArray<SeededKey>
  /** Owner of the USDT contract: signs mints. */
  readonly issuer: SeededKey
  /** An outside address that funds TRX transfers and activations. */
  readonly faucet: SeededKey
  /** An outside address that delegates energy, like a rental provider. */
  readonly provider: SeededKey
  /** The canonical chain, oldest first: `blocks[i].number === genesisNumber + i`. */
  readonly blocks: ReadonlyArray<SimBlock>
  readonly pending: ReadonlyArray<PendingTransaction>
  /** txid -> number of the canonical block that includes it. */
  readonly included: HashMap.HashMap<string, bigint>
  /** Reorganisations so far: shifts the producers of replacement blocks so their IDs differ. */
  readonly forks: number
  readonly faults: Faults
  readonly estimateEnergy: boolean
}

const slot = (config: SimConfig, now: number) => Math.floor(now / config.blockIntervalMs) * config.blockIntervalMs

const hex21 = (address: string) => Option.getOrThrow(TronAddress.toHex(address))

const genesisWorld = (config: SimConfig, now: number): WorldState =>
  config.genesisAccounts.reduce((world, genesis) => {
    const address = hex21(genesis.address)
    const delegated = genesis.delegatedEnergy ?? 0n
    const fresh = {
      ...newAccount(address, now, genesis.trx ?? 0n),
      frozenEnergy: genesis.stakedForEnergy ?? 0n,
      frozenBandwidth: genesis.stakedForBandwidth ?? 0n
    }
    const activated = putAccount(world, delegated > 0n ? { ...fresh, delegatedEnergyBalance: stakeForEnergy(delegated, config.parameters) } : fresh)
    return setTokenBalance(activated, usdtHex(config), address, genesis.usdt ?? 0n)
  }, emptyWorld)

/** A chain of one block at the current slot; its parent is a made-up ID one number lower. */
export const genesis = (config: SimConfig, now: number): SimState => {
  const witnesses = witnessKeys(config.seed)
  const parentHash = (config.genesisNumber - 1n).toString(16).padStart(16, "0") + seededHex(config.seed, "genesis-parent").slice(16)
  const block = makeBlock({
    number: config.genesisNumber,
    parentHash,
    timestamp: slot(config, now),
    witness: witnesses[Number(config.genesisNumber % BigInt(witnessCount))]!,
    transactions: [],
    world: genesisWorld(config, now)
  })
  return {
    config,
    parameters: config.parameters,
    witnesses,
    issuer: seededKey(config.seed, "usdt-issuer"),
    faucet: seededKey(config.seed, "faucet"),
    provider: seededKey(config.seed, "energy-provider"),
    blocks: [block],
    pending: [],
    included: HashMap.empty(),
    forks: 0,
    faults: { dropBroadcasts: 0, delayNextBroadcast: 0, outage: Option.none(), lostReplies: [] },
    estimateEnergy: config.estimateEnergy
  }
}

export const head = (state: SimState): SimBlock => state.blocks[state.blocks.length - 1]!

/** The newest irreversible block: `solidifyDepth` below the head, never below genesis. */
export const solidified = (state: SimState): SimBlock =>
  state.blocks[Math.max(0, state.blocks.length - 1 - state.config.solidifyDepth)]!

export const blockByNumber = (state: SimState, number: bigint): Option.Option<SimBlock> =>
  Option.fromNullable(state.blocks[Number(number - state.config.genesisNumber)])

export const blockById = (state: SimState, blockId: string): Option.Option<SimBlock> =>
  Option.filter(blockByNumber(state, BigInt("0x" + blockId.slice(0, 16))), (block) => block.blockId === blockId.toLowerCase())

export interface Inclusion {
  readonly block: SimBlock
  readonly included: IncludedTransaction
}

/** The canonical block including `txid`, with the transaction. */
export const inclusionOf = (state: SimState, txid: string): Option.Option<Inclusion> =>
  Option.flatMap(HashMap.get(state.included, txid.toLowerCase()), (number) =>
    Option.flatMap(blockByNumber(state, number), (block) =>
      Option.map(Option.fromNullable(block.transactions.find((included) => included.tx.txid === txid.toLowerCase())), (included) => ({
        block,
        included
      }))))

/** Blocks sit on 3-second slots; a block is never earlier than one interval after its parent. */
export const nextBlockTime = (state: SimState, now: number): number =>
  Math.max(head(state).timestamp + state.config.blockIntervalMs, slot(state.config, now))

/** The producer of block `number`; replacement blocks after a reorganisation get other producers. */
export const witnessFor = (state: SimState, number: bigint): SeededKey =>
  state.witnesses[(Number(number % BigInt(witnessCount)) + state.forks * 5) % witnessCount]!

export const isKnown = (state: SimState, txid: string): boolean =>
  HashMap.has(state.included, txid) || state.pending.some((pending) => pending.tx.txid === txid)
