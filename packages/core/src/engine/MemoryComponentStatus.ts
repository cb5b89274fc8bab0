import { Effect, Layer } from "effect"
import { ComponentStatus } from "./ComponentStatus.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { keyOf, workerStatus } from "../memory/MemoryTables.js"

// Byte order, as PostgreSQL's COLLATE "C": the same list whatever the locale.
const byComponent = (a: { readonly component: string }, b: { readonly component: string }) =>
  a.component < b.component ? -1 : a.component > b.component ? 1 : 0

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const board = db.table(workerStatus)
  return ComponentStatus.of({
    report: (report) => db.atomically(() => board.put(keyOf(report.component, report.network), report)),
    list: (network) => db.atomically(() => board.filter((report) => report.network === network).sort(byComponent))
  })
})

export const layer = Layer.effect(ComponentStatus, make)
