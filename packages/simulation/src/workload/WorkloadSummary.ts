import type { Memory } from "@collector/core"
import type { Snapshot } from "../Snapshot.js"
import type { WorldParts } from "../WorldParts.js"

/** How a task paid for its energy, as the service recorded it; `unpayable` when it found no way. */
export const feePathOf = (task: Memory.MemoryTables.SweepTaskRow): string =>
  task.feeSource === "rental"
    ? task.rental !== null && task.rental.activationCost > 0n ? "rental+activation" : "rental"
    : task.feeSource ?? (task.status === "failed" && task.reason.includes("not allowed") ? "unpayable" : "none")

/** Whose wallet a task's destination is: `own-wallet`, `other-tenant`, or undefined for an address outside every wallet. */
const destinationKind = (task: Memory.MemoryTables.SweepTaskRow, snapshot: Snapshot): string | undefined => {
  const wallet = snapshot.wallets.find((w) => w.network === task.network && w.address === task.destination)
  return wallet === undefined ? undefined : wallet.tenantId === task.tenantId ? "own-wallet" : "other-tenant"
}

/** The ranked providers' order: the cheaper first; an order at the other is a failover. */
const firstRanked = "sim-b"

/**
 * The own stake's and the providers' paths: a sweep the stake lent to (`stake.delegated:status`),
 * a sweep on a network with a resource account that paid otherwise because the stake was short or
 * lent out (`stake.short:fee-path`), and a rental that went to the second-ranked provider
 * (`provider.failover`).
 */
const stakePaths = (world: WorldParts, snapshot: Snapshot): ReadonlyArray<string> => {
  const staked = new Set(world.networks.filter((n) => n.ownStake !== undefined).map((n) => n.network))
  const lentTo = new Set(snapshot.delegations.map((d) => d.taskId))
  return snapshot.sweepTasks.flatMap((task) => [
    ...(lentTo.has(task.id) ? [`stake.delegated:${task.status}`] : []),
    ...(staked.has(task.network) && !lentTo.has(task.id) && (task.feeSource === "rental" || task.feeSource === "wallet_trx") ? [`stake.short:${task.feeSource}`] : []),
    ...(task.rental !== null && task.rental.provider !== firstRanked ? ["provider.failover"] : [])
  ])
}

/**
 * What the run's workload came to: its sweep tasks by status and by fee path (`path:status`),
 * automated tasks, tasks into a wallet (`into.own-wallet:status`, `into.other-tenant:status`),
 * its replay comparisons by kind, and the money paths reached (`PathCounts`), for `--verbose`
 * and for counting that every path occurs.
 */
export const workloadSummary = (world: WorldParts, snapshot: Snapshot): string => {
  const counts = new Map<string, number>()
  const count = (key: string, n = 1) => counts.set(key, (counts.get(key) ?? 0) + n)
  for (const task of snapshot.sweepTasks) {
    count(task.status)
    count(`${feePathOf(task)}:${task.status}`)
    if (task.origin === "automation") count("automation")
    const into = destinationKind(task, snapshot)
    if (into !== undefined) count(`into.${into}:${task.status}`)
  }
  for (const path of stakePaths(world, snapshot)) count(path)
  for (const [path, n] of world.paths.entries) count(path, n)
  for (const replay of world.ledger.replays) count(`replays.${replay.kind}`)
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, n]) => `${key}=${n}`).join(" ")
}
