import type { Snapshot } from "../Snapshot.js"
import type { ChainFacts } from "./SweepsOnChain.js"

/**
 * Each collection address (any tenant's current one, and every destination a task was created
 * with) received from the tenants' wallets exactly the sum of the succeeded sweeps to it: no
 * sweep paid twice, none paid while told failed, none told succeeded unpaid.
 */
export const collectionReceived = (snapshot: Snapshot, chain: ChainFacts): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const wallets = new Set(snapshot.wallets.filter((w) => w.network === chain.network).map((w) => w.address))
  const tasks = snapshot.sweepTasks.filter((t) => t.network === chain.network)
  const destinations = new Set([
    ...snapshot.tenantSettings.filter((s) => s.network === chain.network && s.collectionAddress !== "").map((s) => s.collectionAddress),
    ...tasks.map((t) => t.destination)
  ])
  for (const destination of destinations) {
    const swept = tasks.filter((t) => t.destination === destination && t.status === "succeeded")
    const expected = swept.reduce((sum, t) => sum + t.amount, 0n)
    const paid = chain.transfers.filter((t) => t.to === destination && wallets.has(t.from))
    const received = paid.reduce((sum, t) => sum + t.amount, 0n)
    if (received !== expected) {
      violations.push(
        `${chain.network}: collection address ${destination} received ${received} in ${paid.length} transfers from wallets, ` +
          `succeeded sweeps to it sum to ${expected} in ${swept.length} tasks`
      )
    }
  }
  return violations
}
