import type { Kernel } from "@collector/core"
import type { Inclusion } from "../CanonicalInclusions.js"
import type { CanonicalTransfer } from "../CanonicalTransfers.js"
import type { Snapshot } from "../Snapshot.js"

/** What the chain of one network shows, as the sweep invariants read it. */
export interface ChainFacts {
  readonly network: Kernel.Network
  readonly transfers: ReadonlyArray<CanonicalTransfer>
  readonly inclusions: ReadonlyMap<string, ReadonlyArray<Inclusion>>
}

/**
 * Each succeeded task's transaction is on the canonical chain exactly once, succeeded, and moved
 * the task's amount from its wallet to its destination.
 */
export const sweepsOnChain = (snapshot: Snapshot, chain: ChainFacts): ReadonlyArray<string> => {
  const violations: Array<string> = []
  for (const task of snapshot.sweepTasks) {
    if (task.network !== chain.network || task.status !== "succeeded") continue
    const figures = `${chain.network}: task ${task.id} succeeded (${task.amount} from ${task.address} to ${task.destination})`
    if (task.transaction === null) {
      violations.push(`${figures} with no transaction`)
      continue
    }
    const { txid } = task.transaction
    const included = chain.inclusions.get(txid) ?? []
    if (included.length !== 1 || !included[0]!.succeeded) {
      const where = included.map((i) => `block ${i.blockNumber} ${i.succeeded ? "succeeded" : "failed"}`).join(", ")
      violations.push(`${figures}: transaction ${txid} is on the canonical chain ${included.length} times, not once succeeded [${where}]`)
      continue
    }
    const moved = chain.transfers.filter((t) => t.txid === txid)
    if (moved.length !== 1 || moved[0]!.from !== task.address || moved[0]!.to !== task.destination || moved[0]!.amount !== task.amount) {
      const logs = moved.map((t) => `${t.amount} from ${t.from} to ${t.to}`).join(", ")
      violations.push(`${figures}: transaction ${txid} moved [${logs}]`)
    }
  }
  return violations
}
