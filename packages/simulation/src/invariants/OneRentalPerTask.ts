import type { Network } from "@collector/core"
import type { Snapshot } from "../Snapshot.js"

/** One order in the provider's own book: our order number and the address it delegates to. */
export interface BookedOrder {
  readonly orderNo: string
  readonly receiver: string
}

/**
 * At most one rental order per task, as the provider's own order book shows: every order the
 * provider took carries the order number that exactly one task of its network stored before
 * calling (nothing ordered under a number no task knows), for that task's wallet, and no task's
 * number is in the book twice. The match is by what the task stored, never by recomputing the
 * core's numbering.
 */
export const oneRentalPerTask = (snapshot: Snapshot, network: Network, orders: ReadonlyArray<BookedOrder>): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const storedBy = new Map<string, Array<Snapshot["sweepTasks"][number]>>()
  for (const task of snapshot.sweepTasks) {
    if (task.network !== network || task.rental === null) continue
    storedBy.set(task.rental.orderId, [...(storedBy.get(task.rental.orderId) ?? []), task])
  }
  const perNumber = new Map<string, number>()
  for (const { orderNo, receiver } of orders) {
    perNumber.set(orderNo, (perNumber.get(orderNo) ?? 0) + 1)
    const tasks = storedBy.get(orderNo) ?? []
    if (tasks.length !== 1) {
      violations.push(`${network}: the provider took order ${orderNo}, which ${tasks.length === 0 ? "no sweep task" : `${tasks.length} sweep tasks`} stored`)
      continue
    }
    const task = tasks[0]!
    if (task.address !== receiver) violations.push(`${network}: order ${orderNo} of task ${task.id} delegates to ${receiver}, not its wallet ${task.address}`)
  }
  for (const [orderNo, count] of perNumber) {
    if (count > 1) violations.push(`${network}: order ${orderNo} of task ${storedBy.get(orderNo)?.[0]?.id ?? "none"} is in the provider's book ${count} times`)
  }
  return violations
}
