import { Either, HashMap } from "effect"
import { type ExecutionContext, execute } from "./Execution.js"
import { type IncludedTransaction, makeBlock } from "./SimBlock.js"
import { expirationOf } from "./SimTransaction.js"
import { head, nextBlockTime, type PendingTransaction, type SimState, witnessFor } from "./SimState.js"
import { taposHolds } from "./Tapos.js"

/**
 * Producing the next block: every pending transaction that may go in is re-checked and run in
 * arrival order against the head's state. As on a real producer, one that no longer passes
 * (expired, its reference block gone, its fee no longer payable) is dropped without a trace;
 * a delayed one stays pending until its block.
 */

export const executionContext = (state: SimState, now: number, system: boolean): ExecutionContext => ({
  config: state.config,
  parameters: state.parameters,
  issuer: state.issuer.hex,
  now,
  system
})

/** Whether a user transaction may still enter a block at `timestamp` on the current chain. */
const stillValid = (state: SimState, pending: PendingTransaction, timestamp: number): boolean =>
  pending.system || (expirationOf(pending.tx) >= timestamp && taposHolds(state, pending.tx.raw))

export const produceBlock = (state: SimState, now: number): SimState => {
  const parent = head(state)
  const number = parent.number + 1n
  const timestamp = nextBlockTime(state, now)
  let world = parent.world
  let included = state.included
  const transactions: Array<IncludedTransaction> = []
  const kept: Array<PendingTransaction> = []
  for (const pending of state.pending) {
    if (pending.notBefore > number) {
      kept.push(pending)
      continue
    }
    if (!stillValid(state, pending, timestamp) || HashMap.has(included, pending.tx.txid)) continue
    const executed = execute(world, pending.tx, executionContext(state, timestamp, pending.system))
    if (Either.isLeft(executed)) continue
    world = executed.right.world
    included = HashMap.set(included, pending.tx.txid, number)
    transactions.push({
      tx: pending.tx,
      info: { ...executed.right.info, blockNumber: number, blockTimeStamp: timestamp },
      system: pending.system
    })
  }
  const block = makeBlock({ number, parentHash: parent.blockId, timestamp, witness: witnessFor(state, number), transactions, world })
  return { ...state, blocks: [...state.blocks, block], pending: kept, included }
}

/** `count` blocks in a row, each one interval after the previous (or at the current slot, if later). */
export const produceBlocks = (state: SimState, count: number, now: number): SimState => {
  let next = state
  for (let i = 0; i < count; i++) next = produceBlock(next, now)
  return next
}
