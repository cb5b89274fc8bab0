import type { Kernel } from "@collector/core"
import type { Snapshot } from "../Snapshot.js"

/** One order in a provider's own book: our order number, the address it delegates to, and which provider's book (`sim` unless named). */
export interface BookedOrder {
  readonly orderNo: string
  readonly receiver: string
  readonly provider?: string
}

/**
 * At most one rental order per task, as the providers' own order books show (`orders` is every
 * provider's book of the network together): every order a provider took carries the order number that exactly one task of its network stored before
 * calling (nothing ordered under a number no task knows), for that task's wallet, and no task's
 * number is in the books twice, in one provider's book or across two (an order
 * moved to a second provider after the first took it). The match is by what the task stored, never by recomputing the
 * core's numbering.
 */
export const oneRentalPerTask = (snapshot: Snapshot, network: Kernel.Network, orders: ReadonlyArray<BookedOrder>): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const storedBy = new Map<string, Array<Snapshot["sweepTasks"][number]>>()
  for (const task of snapshot.sweepTasks) {
    if (task.network !== network || task.rental === null) continue
    storedBy.set(task.rental.orderId, [...(storedBy.get(task.rental.orderId) ?? []), task])
  }
  const perNumber = new Map<string, Array<string>>()
  for (const { orderNo, provider, receiver } of orders) {
    perNumber.set(orderNo, [...(perNumber.get(orderNo) ?? []), provider ?? "sim"])
    const tasks = storedBy.get(orderNo) ?? []
    if (tasks.length !== 1) {
      violations.push(`${network}: the provider took order ${orderNo}, which ${tasks.length === 0 ? "no sweep task" : `${tasks.length} sweep tasks`} stored`)
      continue
    }
    const task = tasks[0]!
    if (task.address !== receiver) violations.push(`${network}: order ${orderNo} of task ${task.id} delegates to ${receiver}, not its wallet ${task.address}`)
  }
  for (const [orderNo, books] of perNumber) {
    if (books.length < 2) continue
    const task = storedBy.get(orderNo)?.[0]?.id ?? "none"
    const distinct = [...new Set(books)]
    violations.push(
      distinct.length === 1
        ? `${network}: order ${orderNo} of task ${task} is in the provider's book ${books.length} times`
        : `${network}: order ${orderNo} of task ${task} is in ${distinct.length} providers' books (${distinct.join(", ")}), ${books.length} times in all`
    )
  }
  return violations
}
