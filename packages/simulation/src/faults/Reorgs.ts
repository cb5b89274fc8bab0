import { Settings } from "@collector/core"
import { Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { SimulatedNetwork } from "../SimulatedNetwork.js"
import { SnapshotReader } from "../Snapshot.js"
import type { Trace } from "../Trace.js"
import { faultRates } from "./FaultRates.js"

/** The most confirmations any tenant's block rule asks for: deeper reorganisations undo deposits every block rule confirmed. */
/** The 21-byte hex address that sent a transaction. */
const ownerOf = (tx: { readonly raw: { readonly contract: ReadonlyArray<{ readonly parameter: { readonly value: object } }> } }): string => {
  const value = tx.raw.contract[0]?.parameter.value as { readonly owner_address?: string } | undefined
  return (value?.owner_address ?? "").toLowerCase()
}

const deepestBlockRule = Math.max(...Settings.allConfirmationRules.flatMap((rule) => (rule.startsWith("block_") ? [Number(rule.slice("block_".length))] : [])))

/**
 * Reorganisations of one network, of any depth short of solidification (the simulator's own
 * `solidifyDepth`): shallow ones most often, and deep ones, past every block rule, often enough
 * that deposits already confirmed leave the canonical chain in most runs. Some keep every
 * transaction of the dropped blocks (they land again in other blocks), some leave some out.
 * Some are aimed at a block holding a sweep's transaction. The trace names how many confirmed
 * deposits the reorganisation took off the chain, and whether it was aimed.
 */
export class Reorgs {
  constructor(private readonly network: SimulatedNetwork, private readonly dice: Dice, private readonly trace: Trace) {}

  private depth(reversible: number): number {
    const solidify = this.network.sim.chain.config.solidifyDepth
    const roll = this.dice.int(1, 100) / 100
    const wanted = roll <= faultRates.reorgDeep
      ? this.dice.int(deepestBlockRule + 1, solidify)
      : roll <= faultRates.reorgDeep + faultRates.reorgShallow
      ? this.dice.int(1, 3)
      : this.dice.int(4, deepestBlockRule)
    return Math.min(wanted, reversible)
  }

  readonly step = Effect.gen(this, function*() {
    if (!this.dice.chance(faultRates.reorg)) return
    const { network, sim } = this.network
    const state = yield* sim.chain.state
    const reversible = Math.min(sim.chain.config.solidifyDepth, state.blocks.length - 1)
    if (reversible < 1) return
    const snapshot = yield* Effect.flatMap(SnapshotReader, (reader) => reader.read)
    // Sweeps are where a reorganisation hurts most: now and then one is aimed at a block holding a sweep's transaction.
    const sweepTxids = new Set(snapshot.sweepTasks.flatMap((t) => (t.network === network && t.transaction !== null ? [t.transaction.txid] : [])))
    const sweepBlocks = state.blocks.slice(state.blocks.length - reversible).filter((b) => b.transactions.some(({ tx }) => sweepTxids.has(tx.txid)))
    const head = state.blocks[state.blocks.length - 1]!.number
    const aimed = sweepBlocks.length > 0 && this.dice.chance(faultRates.reorgAimedAtSweep)
    const depth = aimed
      ? Number(head - this.dice.pick(sweepBlocks).number + 1n)
      : this.depth(reversible)
    const dropped = state.blocks.slice(state.blocks.length - depth)
    const txids = dropped.flatMap((block) => block.transactions.map(({ tx }) => tx.txid))
    // The energy provider's own transactions always land again: a real provider watches its delegations and sends them again.
    const provider = state.provider.hex.toLowerCase()
    const leavable = dropped.flatMap((block) => block.transactions.filter(({ tx }) => ownerOf(tx) !== provider).map(({ tx }) => tx.txid))
    const exclude = this.dice.chance(faultRates.reorgDropsTransactions) ? leavable.filter(() => this.dice.chance(0.5)) : []
    const hashes = new Set(dropped.map((block) => block.blockId.toLowerCase()))
    const confirmed = snapshot.deposits.filter((d) =>
      d.network === network && d.status === "confirmed" && d.blockHash !== null && hashes.has(d.blockHash.toLowerCase())
    ).length
    yield* Effect.orDie(sim.chain.reorg(depth, exclude))
    this.trace.record(`fault ${network} reorg depth ${depth} aimed ${aimed} of ${txids.length} transactions left out ${exclude.length} confirmed deposits undone ${confirmed}`)
  })
}
