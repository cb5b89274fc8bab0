import { revisionDecision } from "../../webhook/RevisionDecision.js"
import type { ClaimResult, EventKey, RevisionBooking, WebhookStore } from "./WebhookStore.js"

// A JSON pair cannot collide the way "1" + ":" + "2:3" and "1:2" + ":" + "3" would.
const keyText = (key: EventKey) => JSON.stringify([key.appId, key.eventId])

/**
 * A `WebhookStore` in memory, for tests and trials only: forgotten on restart. Claims are
 * atomic because each runs without an `await` in between; bookings of one deposit wait for each
 * other (a promise chain per deposit), bookings of different deposits run side by side.
 */
export class MemoryWebhookStore implements WebhookStore {
  readonly events = new Map<string, "in-progress" | "processed">()
  readonly revisions = new Map<string, number>()
  readonly #queues = new Map<string, Promise<unknown>>()

  async claim(key: EventKey): Promise<ClaimResult> {
    const state = this.events.get(keyText(key))
    if (state !== undefined) return state
    this.events.set(keyText(key), "in-progress")
    return "claimed"
  }

  async complete(key: EventKey): Promise<void> {
    this.events.set(keyText(key), "processed")
  }

  async release(key: EventKey): Promise<void> {
    if (this.events.get(keyText(key)) === "in-progress") this.events.delete(keyText(key))
  }

  bookIfHigher<A>(depositId: string, revision: number, book: () => Promise<A>): Promise<RevisionBooking<A>> {
    const run = async (): Promise<RevisionBooking<A>> => {
      const highest = this.revisions.get(depositId)
      if (revisionDecision(highest, revision) === "acknowledge") return { applied: false, highestBooked: highest! }
      const value = await book()
      this.revisions.set(depositId, revision)
      return { applied: true, value }
    }
    const previous = this.#queues.get(depositId) ?? Promise.resolve()
    const result = previous.then(run, run)
    const settled = result.then(() => undefined, () => undefined)
    this.#queues.set(depositId, settled)
    void settled.then(() => {
      if (this.#queues.get(depositId) === settled) this.#queues.delete(depositId)
    })
    return result
  }
}
