import type { Memory } from "@collector/core"

/** Called with each committed change of one table: the row after it, undefined when it was deleted. */
export type ChangeListener = (key: unknown, row: unknown) => void

/**
 * The store's committed changes, in commit order, handed to whoever subscribed to their table:
 * invariants that need what the final state no longer shows (every revision a deposit went
 * through, every transaction a task ever held) subscribe before the run starts.
 */
export class ChangeFeed {
  private readonly listeners = new Map<string, Array<ChangeListener>>()

  subscribe(table: string, listener: ChangeListener): void {
    const current = this.listeners.get(table)
    if (current === undefined) this.listeners.set(table, [listener])
    else current.push(listener)
  }

  publish(change: Memory.TableChange): void {
    for (const listener of this.listeners.get(change.table) ?? []) listener(change.key, change.row)
  }
}
