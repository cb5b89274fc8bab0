import { type Network, rentalOrderId } from "@collector/core"
import type { Snapshot } from "../Snapshot.js"

/**
 * At most one rental order per task, as the provider's own order book shows: every order the
 * provider took carries the order number of one task of its network, the one that task stored
 * before calling (nothing ordered under another number, nothing ordered for a task that does
 * not know of it).
 */
export const oneRentalPerTask = (snapshot: Snapshot, network: Network, orderNumbers: ReadonlyArray<string>): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const tasks = new Map(snapshot.sweepTasks.filter((t) => t.network === network).map((t) => [rentalOrderId(t), t]))
  const perTask = new Map<string, number>()
  for (const orderNo of orderNumbers) {
    const task = tasks.get(orderNo)
    if (task === undefined) {
      violations.push(`${network}: the provider took order ${orderNo}, which names no sweep task`)
      continue
    }
    perTask.set(task.id, (perTask.get(task.id) ?? 0) + 1)
    if (task.rental?.orderId !== orderNo) {
      violations.push(`${network}: the provider took order ${orderNo} for task ${task.id}, whose rental is ${task.rental?.orderId ?? "none"}`)
    }
  }
  for (const [id, count] of perTask) {
    if (count > 1) violations.push(`${network}: task ${id} has ${count} rental orders`)
  }
  return violations
}
