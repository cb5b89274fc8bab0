import { Effect } from "effect"
import { SnapshotReader } from "./Snapshot.js"
import { canonical, type Trace } from "./Trace.js"

/**
 * Records what the store holds at the end of a run, every table's rows in the order of their
 * canonical text (an order no store's own row order can change), for a store whose changes the
 * trace does not see one by one, without the `ignored` columns of each table.
 */
export const recordSnapshot = (trace: Trace, ignored: Readonly<Record<string, ReadonlyArray<string>>>) =>
  Effect.gen(function*() {
    const snapshot = yield* Effect.flatMap(SnapshotReader, (reader) => reader.read)
    for (const [table, rows] of Object.entries(snapshot).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const left = ignored[table] ?? []
      const lines = (rows as ReadonlyArray<Record<string, unknown>>)
        .map((row) => canonical(Object.fromEntries(Object.entries(row).filter(([column]) => !left.includes(column)))))
        .sort()
      for (const line of lines) trace.record(`final ${table}|${line}`)
    }
  })
