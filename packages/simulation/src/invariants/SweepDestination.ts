import type { Snapshot } from "../Snapshot.js"
import type { ChainFacts } from "./SweepsOnChain.js"
import type { WorkloadLedger } from "../workload/WorkloadLedger.js"

/**
 * Sweeps go to their own tenant's collection address and nowhere else: every task's destination
 * is the address the workload set for the task's scope (one per scope, set before any task of
 * it), and every USDT transfer on the canonical chain into a collection address comes from a
 * wallet of that address's tenant, or from outside every tenant's wallets (the workload's own
 * payments), never from another tenant's wallet.
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
  const ownerOf = new Map(ledger.collectionAddresses.filter((c) => c.network === chain.network).map((c) => [c.address, c.tenantId]))
  const walletAt = new Map(snapshot.wallets.filter((w) => w.network === chain.network).map((w) => [w.address, w]))
  for (const transfer of chain.transfers) {
    const owner = ownerOf.get(transfer.to)
    const wallet = walletAt.get(transfer.from)
    if (owner === undefined || wallet === undefined || wallet.tenantId === owner) continue
    violations.push(
      `${chain.network}: ${transfer.amount} from wallet ${wallet.id} of tenant ${wallet.tenantId} to the collection address ${transfer.to} of tenant ${owner} (${transfer.txid}:${transfer.logIndex})`
    )
  }
  return violations
}
