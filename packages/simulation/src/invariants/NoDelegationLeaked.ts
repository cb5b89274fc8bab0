import type { Kernel } from "@collector/core"
import type { DelegationFacts } from "../CanonicalDelegations.js"
import type { Snapshot } from "../Snapshot.js"

/**
 * After settling, the own stake is all back: the resource account `owner` lends nothing to any
 * wallet at the chain's head, every delegation ledger row of the network is `reclaimed`, and the
 * chain holds no more delegations from it to a wallet than tasks of that wallet the ledger lent
 * to (so no task was lent twice), each of them a transaction the ledger recorded.
 */
export const noDelegationLeaked = (snapshot: Snapshot, network: Kernel.Network, owner: string, chain: DelegationFacts): ReadonlyArray<string> => {
  const violations: Array<string> = []
  for (const { receiver, sun } of chain.outstanding) {
    violations.push(`${network}: the resource account ${owner} still delegates ${sun} SUN of energy stake to ${receiver} after settling`)
  }
  const rows = snapshot.delegations.filter((d) => d.network === network)
  for (const row of rows) {
    if (row.state !== "reclaimed") violations.push(`${network}: the delegation of task ${row.taskId} to ${row.receiver} ended ${row.state}, not reclaimed`)
  }
  const recorded = new Set(rows.map((d) => d.delegateTxid))
  const onChain = new Map<string, number>()
  for (const { txid, receiver } of chain.delegations) {
    onChain.set(receiver, (onChain.get(receiver) ?? 0) + 1)
    if (!recorded.has(txid)) violations.push(`${network}: delegation ${txid} to ${receiver} is on chain, but no delegation ledger row records it`)
  }
  for (const [receiver, count] of onChain) {
    const tasks = new Set(rows.filter((d) => d.receiver === receiver && d.owner === owner).map((d) => d.taskId)).size
    if (count > tasks) violations.push(`${network}: ${receiver} got ${count} delegations from the resource account on chain, for ${tasks} tasks that borrowed`)
  }
  return violations
}
