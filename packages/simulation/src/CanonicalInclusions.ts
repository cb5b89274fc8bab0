import type { SimState } from "@collector/tron-sim"

/** One inclusion of a transaction in a block of the canonical chain. */
export interface Inclusion {
  readonly blockNumber: bigint
  readonly succeeded: boolean
}

/**
 * Where each transaction sits on the simulator's canonical chain, read from the blocks
 * themselves (never from its index, nor through the adapter under test): a transaction included
 * twice shows twice.
 */
export const canonicalInclusions = (state: SimState.SimState): ReadonlyMap<string, ReadonlyArray<Inclusion>> => {
  const out = new Map<string, Array<Inclusion>>()
  for (const block of state.blocks) {
    for (const { info, tx } of block.transactions) {
      const found = out.get(tx.txid) ?? []
      found.push({ blockNumber: block.number, succeeded: info.contractRet === "SUCCESS" })
      out.set(tx.txid, found)
    }
  }
  return out
}
