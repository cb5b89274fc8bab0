import { type Kernel, Memory } from "@collector/core"
import type { SimState } from "@collector/tron-sim"
import type { ChangeFeed } from "./ChangeFeed.js"

/** The simulated chain as it stood when a row was committed: its head and its solidified block. */
export interface ChainMoment {
  readonly head: bigint
  readonly solidified: bigint
}

/** A deposit row committed confirmed at a revision it was not confirmed at before: a booking. */
export interface BookingCommit extends ChainMoment {
  readonly row: Memory.MemoryTables.DepositRow
}

/** A sweep task row committed in a terminal status for the first time. */
export interface SettlementCommit extends ChainMoment {
  readonly row: Memory.MemoryTables.SweepTaskRow
  /** The canonical block holding the task's transaction at that moment; null when none did. */
  readonly txBlock: bigint | null
}

/** The head and solidified block of a simulator's state, read from its blocks and its depth. */
export const momentOf = (state: SimState.SimState): ChainMoment => {
  const blocks = state.blocks
  return {
    head: blocks[blocks.length - 1]!.number,
    solidified: blocks[Math.max(0, blocks.length - 1 - state.config.solidifyDepth)]!.number
  }
}

/** The statuses a task ends in, as the contract lists them (written out here, not taken from the core). */
const terminal: ReadonlySet<string> = new Set(["succeeded", "failed", "cancelled"])

const blockHolding = (state: SimState.SimState, txid: string): bigint | null => {
  for (let i = state.blocks.length - 1; i >= 0; i--) {
    const block = state.blocks[i]!
    if (block.transactions.some(({ tx }) => tx.txid === txid)) return block.number
  }
  return null
}

/**
 * The chain at the moment of each booking and each settlement, read from the simulator's state
 * synchronously as the store reports the commit: the final rows no longer say when they were
 * written, nor what the chain was then. Memory store only (PostgreSQL has no change feed).
 */
export class ChainAtCommit {
  readonly bookings: Array<BookingCommit> = []
  readonly settlements: Array<SettlementCommit> = []
  private readonly confirmedAt = new Map<string, number>()
  private readonly ended = new Set<string>()

  constructor(feed: ChangeFeed, chainOf: (network: Kernel.Network) => SimState.SimState) {
    feed.subscribe(Memory.MemoryTables.deposits.name, (_, value) => {
      const row = value as Memory.MemoryTables.DepositRow | undefined
      if (row === undefined || row.status !== "confirmed" || this.confirmedAt.get(row.id) === row.revision) return
      this.confirmedAt.set(row.id, row.revision)
      this.bookings.push({ row, ...momentOf(chainOf(row.network)) })
    })
    feed.subscribe(Memory.MemoryTables.sweepTasks.name, (_, value) => {
      const row = value as Memory.MemoryTables.SweepTaskRow | undefined
      if (row === undefined || !terminal.has(row.status) || this.ended.has(row.id)) return
      this.ended.add(row.id)
      const state = chainOf(row.network)
      const txBlock = row.transaction === null ? null : blockHolding(state, row.transaction.txid)
      this.settlements.push({ row, txBlock, ...momentOf(state) })
    })
  }
}
