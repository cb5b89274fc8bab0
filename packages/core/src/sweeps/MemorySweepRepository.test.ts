import { expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { SweepRepository } from "./SweepRepository.js"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"
import { sweepRepositoryContract } from "./SweepRepositoryContract.js"
import { sweepDraftFor, sweepTime } from "./SweepTestData.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"
import { sweepTasks } from "../memory/MemoryTables.js"

const storage = MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage))

sweepRepositoryContract("memory", storage)

const at = sweepTime

// The twin of PostgreSQL's trigger test, whose raw UPDATE no port can make: a writer that holds
// a claim on a terminal task (forced into the table here) still cannot change it.
it.effect("a terminal task never changes, even for a writer that holds a claim on it", () =>
  Effect.gen(function*() {
    const repo = yield* SweepRepository
    const fixtures = yield* StorageFixtures
    const db = yield* MemoryDatabase
    const scope = yield* fixtures.scope("nile")
    const wallet = yield* fixtures.wallet(scope)
    const [task] = yield* repo.insert(scope, [sweepDraftFor(wallet)], at(0))
    yield* db.atomically(() =>
      db.table(sweepTasks).update(task!.id, (row) => ({ ...row, status: "cancelled", claimedBy: "w1", claimedUntil: at(60) }))
    )
    const exit = yield* Effect.exit(repo.save({ ...task!, reason: "later" }, "w1"))
    expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    expect(Option.getOrThrow(yield* repo.find(scope, task!.id)).task).toMatchObject({ status: "cancelled", reason: "", version: 0 })
  }).pipe(Effect.provide(storage)))
