import { Either, HashMap } from "effect"
import { produceBlocks } from "./BlockProduction.js"
import { SimControlError } from "./SimErrors.js"
import { head, type PendingTransaction, type SimState } from "./SimState.js"

/**
 * A fork switch: the last `depth` blocks are dropped and `depth + 1` other blocks, from other
 * producers, take their place, so the longer chain wins and every replaced block has a new ID
 * (and the first new one a parentHash the scanner has not seen at that height). Transactions of
 * the dropped blocks go back to the pool ahead of newer ones, as java-tron re-pushes them, and
 * land again unless `exclude` names them or their reference block was among the dropped ones.
 * Only unsolidified blocks can be replaced.
 */
export const reorganise = (
  state: SimState,
  depth: number,
  exclude: ReadonlySet<string>,
  now: number
): Either.Either<SimState, SimControlError> => {
  const reversible = Math.min(state.config.solidifyDepth, state.blocks.length - 1)
  if (!Number.isInteger(depth) || depth < 1 || depth > reversible) {
    return Either.left(new SimControlError({ reason: `reorg depth must be between 1 and ${reversible}, got ${depth}` }))
  }
  const kept = state.blocks.slice(0, state.blocks.length - depth)
  const dropped = state.blocks.slice(state.blocks.length - depth)
  const forkPoint = kept[kept.length - 1]!
  const returned: Array<PendingTransaction> = dropped.flatMap((block) =>
    block.transactions
      .filter((included) => !exclude.has(included.tx.txid))
      .map((included) => ({ tx: included.tx, system: included.system, notBefore: forkPoint.number + 1n }))
  )
  const included = dropped.reduce(
    (index, block) => block.transactions.reduce((inner, { tx }) => HashMap.remove(inner, tx.txid), index),
    state.included
  )
  const rewound: SimState = {
    ...state,
    blocks: kept,
    included,
    pending: [...returned, ...state.pending],
    forks: state.forks + 1
  }
  const replaced = produceBlocks(rewound, depth + 1, now)
  return head(replaced).number === head(state).number + 1n
    ? Either.right(replaced)
    : Either.left(new SimControlError({ reason: "reorg did not produce a longer chain" }))
}
