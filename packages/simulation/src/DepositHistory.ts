import { Memory } from "@collector/core"
import { ChangeFeed } from "./ChangeFeed.js"

/**
 * Every committed revision of every deposit, from the store's change feed: the stored row shows
 * only the latest revision, while each event carries the revision it was written for.
 */
export class DepositHistory {
  /** By deposit ID: each committed row, in commit order (null: the row was deleted). */
  readonly writes = new Map<string, Array<Memory.MemoryTables.DepositRow | null>>()
  /** True when only the final rows were seen: earlier revisions are unknown, not missing. */
  partial = false

  constructor(feed: ChangeFeed) {
    feed.subscribe(Memory.MemoryTables.deposits.name, (key, row) => {
      const id = String(key)
      const rows = this.writes.get(id) ?? []
      rows.push((row as Memory.MemoryTables.DepositRow | undefined) ?? null)
      this.writes.set(id, rows)
    })
  }

  /** A history that saw only `rows`, the final state (a store without a change feed). */
  static ofRows(rows: ReadonlyArray<Memory.MemoryTables.DepositRow>): DepositHistory {
    const feed = new ChangeFeed()
    const history = new DepositHistory(feed)
    for (const row of rows) feed.publish({ table: Memory.MemoryTables.deposits.name, key: row.id, row })
    history.partial = true
    return history
  }

  /** The deposit as last committed at `revision`, if it ever was. */
  at(depositId: string, revision: number): Memory.MemoryTables.DepositRow | undefined {
    const rows = this.writes.get(depositId) ?? []
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i]
      if (row !== null && row !== undefined && row.revision === revision) return row
    }
    return undefined
  }
}
