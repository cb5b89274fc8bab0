import { Memory, type Sweeps } from "@collector/core"
import type { ChangeFeed } from "./ChangeFeed.js"

/**
 * The transactions every sweep task ever held, from the store's change feed: a task signed
 * twice may show only its second transaction at the end.
 */
export class TaskHistory {
  /** By task ID: each committed change of its transaction, in commit order (null: none held). */
  readonly transactions = new Map<string, Array<Sweeps.StoredTransaction | null>>()
  /** Tasks deleted from the store (a task is never deleted). */
  readonly deleted: Array<string> = []

  constructor(feed: ChangeFeed) {
    feed.subscribe(Memory.MemoryTables.sweepTasks.name, (key, row) => {
      const id = String(key)
      const task = row as Memory.MemoryTables.SweepTaskRow | undefined
      if (task === undefined) return void this.deleted.push(id)
      const held = this.transactions.get(id) ?? []
      const last = held.at(-1)
      const next = task.transaction
      if (held.length === 0 || last?.txid !== next?.txid || last?.rawDataHex !== next?.rawDataHex) held.push(next)
      this.transactions.set(id, held)
    })
  }
}
