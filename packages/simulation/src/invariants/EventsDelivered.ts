import { Memory } from "@collector/core"
import type { ReceivedWebhook } from "../Receiver.js"
import type { Snapshot } from "../Snapshot.js"

/**
 * Every event is delivered (the receiver acknowledged it at least once, and its round ended
 * delivered), or its round ended failed with a reason. Nothing is left pending or in delivery.
 */
export const eventsDelivered = (snapshot: Snapshot, received: ReadonlyArray<ReceivedWebhook>): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const rounds = new Map(snapshot.deliveryRounds.map((r) => [Memory.MemoryTables.keyOf(r.eventId, r.round), r]))
  const acknowledged = new Set(received.filter((r) => r.answer === "ack").map((r) => r.eventId))
  for (const event of snapshot.events) {
    const round = rounds.get(Memory.MemoryTables.keyOf(event.id, event.currentRound))
    const figures = `event ${event.id} (${event.eventType}) ${event.status} after ${event.attempts} attempts in round ${event.currentRound}` +
      (round === undefined ? "" : `, round ${round.outcome ?? "open"}${round.reason === "" ? "" : `: ${round.reason}`}`)
    if (event.status === "delivered") {
      if (event.deliveredAt === null) violations.push(`${figures}: delivered with no delivery time`)
      if (!acknowledged.has(event.id)) violations.push(`${figures}: delivered but the receiver never acknowledged it`)
      if (round !== undefined && round.outcome !== "delivered") violations.push(`${figures}: delivered but its round did not end delivered`)
    } else if (event.status === "failed") {
      if (event.lastError === "") violations.push(`${figures}: failed with no reason`)
      if (round !== undefined && (round.outcome !== "failed" || round.reason === "")) {
        violations.push(`${figures}: failed but its round did not end failed with a reason`)
      }
    } else {
      violations.push(`${figures}: neither delivered nor failed`)
    }
  }
  return violations
}
