/**
 * One table of the memory database: rows by key, in insertion order (so every scan is
 * deterministic). Rows are immutable values; every change goes through `put` or `delete`, which
 * record what they replace in the open transaction's journal, so a failed transaction can be
 * undone exactly. Mutating a row in place would escape the journal: never do it.
 */
/** One change to a table, as an observer of the database sees it: `row` undefined for a delete. */
export interface TableChange {
  readonly table: string
  readonly key: unknown
  readonly row: unknown
}

export class MemoryTable<K, V> {
  private readonly rows = new Map<K, V>()

  constructor(readonly name: string, private readonly journal: Journal) {}

  get(key: K): V | undefined {
    return this.rows.get(key)
  }

  has(key: K): boolean {
    return this.rows.has(key)
  }

  get size(): number {
    return this.rows.size
  }

  values(): IterableIterator<V> {
    return this.rows.values()
  }

  keys(): IterableIterator<K> {
    return this.rows.keys()
  }

  entries(): IterableIterator<[K, V]> {
    return this.rows.entries()
  }

  /** The rows that satisfy `keep`, in insertion order. */
  filter(keep: (row: V) => boolean): Array<V> {
    const out: Array<V> = []
    for (const row of this.rows.values()) if (keep(row)) out.push(row)
    return out
  }

  find(match: (row: V) => boolean): V | undefined {
    for (const row of this.rows.values()) if (match(row)) return row
    return undefined
  }

  put(key: K, row: V): void {
    this.journal.record(this.rows, key, { table: this.name, key, row })
    this.rows.set(key, row)
  }

  /** Replaces an existing row with `change(row)`; a missing key is a bug in the caller. */
  update(key: K, change: (row: V) => V): V {
    const current = this.rows.get(key)
    if (current === undefined) throw new Error(`${this.name}: no row ${String(key)} to update`)
    const next = change(current)
    this.put(key, next)
    return next
  }

  delete(key: K): boolean {
    if (!this.rows.has(key)) return false
    this.journal.record(this.rows, key, { table: this.name, key, row: undefined })
    this.rows.delete(key)
    return true
  }
}

interface Undo {
  readonly rows: Map<unknown, unknown>
  readonly key: unknown
  readonly had: boolean
  readonly previous: unknown
  readonly change: TableChange
}

/**
 * What the open transaction changed, newest last, so that it can be rolled back to any earlier
 * mark (a savepoint). When it ends, the changes that stand are reported to the observer, in the
 * order they were made; changes made outside a transaction are reported at once.
 */
export class Journal {
  private entries: Array<Undo> | null = null

  constructor(private readonly observe?: (change: TableChange) => void) {}

  get open(): boolean {
    return this.entries !== null
  }

  begin(): void {
    this.entries = []
  }

  end(): void {
    const committed = this.entries ?? []
    this.entries = null
    if (this.observe !== undefined) for (const undo of committed) this.observe(undo.change)
  }

  mark(): number {
    return this.entries?.length ?? 0
  }

  record<K, V>(rows: Map<K, V>, key: K, change: TableChange): void {
    if (this.entries === null) return void this.observe?.(change)
    this.entries.push({ rows: rows as Map<unknown, unknown>, key, had: rows.has(key), previous: rows.get(key), change })
  }

  /** Undoes every change recorded after `mark`, newest first. */
  rollbackTo(mark: number): void {
    if (this.entries === null) return
    while (this.entries.length > mark) {
      const undo = this.entries.pop()!
      if (undo.had) undo.rows.set(undo.key, undo.previous)
      else undo.rows.delete(undo.key)
    }
  }
}
