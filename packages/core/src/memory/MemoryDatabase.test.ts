import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { MemoryDatabase, tableDef } from "./MemoryDatabase.js"

const notes = tableDef<string, { readonly text: string }>("notes")

const withDatabase = <A, E>(body: (db: MemoryDatabase["Type"]) => Effect.Effect<A, E>) =>
  Effect.flatMap(MemoryDatabase, body).pipe(Effect.provide(MemoryDatabase.layer))

describe("MemoryDatabase", () => {
  it.effect("a failed transaction leaves every table as it was; a successful one keeps its writes", () =>
    withDatabase((db) =>
      Effect.gen(function*() {
        const table = db.table(notes)
        yield* db.atomically(() => table.put("a", { text: "kept" }))
        const failed = yield* Effect.exit(db.transaction(Effect.gen(function*() {
          yield* db.atomically(() => table.put("a", { text: "changed" }))
          yield* db.atomically(() => table.put("b", { text: "added" }))
          yield* db.atomically(() => table.delete("a"))
          return yield* Effect.fail("rejected")
        })))
        expect(Exit.isFailure(failed)).toBe(true)
        expect([...table.entries()]).toEqual([["a", { text: "kept" }]])
        yield* db.transaction(db.atomically(() => table.put("b", { text: "added" })))
        expect([...table.entries()]).toEqual([["a", { text: "kept" }], ["b", { text: "added" }]])
      })
    ))

  it.effect("a nested transaction is a savepoint: its failure undoes only its own writes", () =>
    withDatabase((db) =>
      Effect.gen(function*() {
        const table = db.table(notes)
        yield* db.transaction(Effect.gen(function*() {
          yield* db.atomically(() => table.put("outer", { text: "1" }))
          yield* Effect.ignore(db.transaction(Effect.zipRight(db.atomically(() => table.put("inner", { text: "2" })), Effect.fail("no"))))
        }))
        expect([...table.keys()]).toEqual(["outer"])
      })
    ))

  it.effect("an operation that throws undoes its own writes and dies", () =>
    withDatabase((db) =>
      Effect.gen(function*() {
        const table = db.table(notes)
        const exit = yield* Effect.exit(db.atomically(() => {
          table.put("x", { text: "half" })
          throw new Error("constraint")
        }))
        expect(Exit.isFailure(exit) && exit.cause._tag === "Die").toBe(true)
        expect(table.size).toBe(0)
      })
    ))

  it.effect("an interrupted transaction is rolled back, and others wait for it instead of reading its writes", () =>
    withDatabase((db) =>
      Effect.gen(function*() {
        const table = db.table(notes)
        const wrote = yield* Deferred.make<void>()
        const open = yield* Effect.fork(db.transaction(Effect.gen(function*() {
          yield* db.atomically(() => table.put("uncommitted", { text: "?" }))
          yield* Deferred.succeed(wrote, undefined)
          return yield* Effect.never
        })))
        yield* Deferred.await(wrote)
        const reader = yield* Effect.fork(db.atomically(() => table.has("uncommitted")))
        yield* Effect.yieldNow()
        expect(reader.unsafePoll()).toBeNull()
        yield* Fiber.interrupt(open)
        expect(yield* Fiber.join(reader)).toBe(false)
      })
    ))

  it.effect("sequences never give a value twice, not even after a rollback", () =>
    withDatabase((db) =>
      Effect.gen(function*() {
        expect(db.nextId("app")).toBe("1000001")
        yield* Effect.ignore(db.transaction(Effect.zipRight(Effect.sync(() => db.nextId("wallet")), Effect.fail("no"))))
        expect(db.nextId("wallet")).toBe("2")
        expect(db.nextId("taskEvent")).toBe("1")
      })
    ))

  it.effect("an observer sees every committed change in order, and none a failed transaction undid", () => {
    const seen: Array<string> = []
    return Effect.gen(function*() {
      const db = yield* MemoryDatabase
      const table = db.table(notes)
      yield* db.atomically(() => table.put("a", { text: "1" }))
      yield* Effect.ignore(db.transaction(Effect.zipRight(db.atomically(() => table.put("b", { text: "lost" })), Effect.fail("no"))))
      yield* db.transaction(Effect.gen(function*() {
        yield* db.atomically(() => table.put("c", { text: "2" }))
        yield* Effect.ignore(db.transaction(Effect.zipRight(db.atomically(() => table.put("d", { text: "lost" })), Effect.fail("no"))))
        yield* db.atomically(() => table.delete("a"))
      }))
      expect(seen).toEqual(["notes a 1", "notes c 2", "notes a -"])
    }).pipe(Effect.provide(MemoryDatabase.layerWith({
      onChange: (change) => seen.push(`${change.table} ${String(change.key)} ${(change.row as { text: string } | undefined)?.text ?? "-"}`)
    })))
  })
})
