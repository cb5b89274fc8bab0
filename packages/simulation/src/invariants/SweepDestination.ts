import type { Snapshot } from "../Snapshot.js"
import type { ChainFacts } from "./SweepsOnChain.js"
import type { WorkloadLedger } from "../workload/WorkloadLedger.js"

/**
 * Sweeps go to their own tenant's collection address and nowhere else: every task's destination
 * is the address the workload set for the task's scope (one per scope, set before any task of
 * it), and every USDT transfer on the canonical chain into a collection address comes from a
 * wallet of a tenant that set it as its collection address, or from outside every tenant's
 * wallets (the workload's own payments), never from another tenant's wallet. A collection
 * address may be a wallet, of the same tenant or of another.
 */
export const sweepDestination = (
  snapshot: Snapshot,
  chain: ChainFacts,
  ledger: Pick<WorkloadLedger, "collectionAddressOf" | "collectionAddresses">
): ReadonlyArray<string> => {
  const violations: Array<string> = []
  for (const task of snapshot.sweepTasks) {
    if (task.network !== chain.network) continue
    const wanted = ledger.collectionAddressOf(task.tenantId, task.network)
    if (task.destination !== wanted) {
      violations.push(`${task.network}: task ${task.id} of tenant ${task.tenantId} sweeps to ${task.destination}, its collection address is ${wanted ?? "unset"}`)
    }
  }
  // An address may be the collection address of several tenants (one's wallet, another's collection).
  const ownersOf = new Map<string, Set<string>>()
  for (const c of ledger.collectionAddresses) {
    if (c.network !== chain.network) continue
    ownersOf.set(c.address, (ownersOf.get(c.address) ?? new Set()).add(c.tenantId))
  }
  const walletAt = new Map(snapshot.wallets.filter((w) => w.network === chain.network).map((w) => [w.address, w]))
  for (const transfer of chain.transfers) {
    const owners = ownersOf.get(transfer.to)
    const wallet = walletAt.get(transfer.from)
    if (owners === undefined || wallet === undefined || owners.has(wallet.tenantId)) continue
    violations.push(
      `${chain.network}: ${transfer.amount} from wallet ${wallet.id} of tenant ${wallet.tenantId} to the collection address ${transfer.to} of tenant ${[...owners].join(", ")} (${transfer.txid}:${transfer.logIndex})`
    )
  }
  return violations
}
