import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { MemoryStorage } from "../memory/MemoryStorage.js"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"
import { storedTransaction, sweepDraftFor, sweepTime } from "./SweepTestData.js"
import { intervene } from "./OperatorIntervention.js"
import { SweepRepository } from "./SweepRepository.js"

const storage = MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage))

/** A new tenant's wallet with one task made at `created` (seconds), and the repository. */
const newTask = (created: number, nextStep: number) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const repo = yield* SweepRepository
    const scope = yield* fixtures.scope("nile")
    const wallet = yield* fixtures.wallet(scope)
    const [task] = yield* repo.insert(scope, [sweepDraftFor(wallet)], sweepTime(created))
    // The sweeper put it off until `nextStep` (waiting for energy, say).
    const [claimed] = (yield* repo.claim("nile", "sweeper", sweepTime(created), sweepTime(created + 5), 10_000)).filter((t) => t.id === task!.id)
    yield* repo.save({ ...claimed!, stage: "waiting_energy", reason: "waiting for energy", nextStepAt: sweepTime(nextStep) }, "sweeper")
    const stored = Option.getOrThrow(yield* repo.find(scope, task!.id)).task
    return { scope, task: stored, repo }
  })

const setNow = (seconds: number) => TestClock.setTime(sweepTime(seconds).getTime())

layer(storage)("an operator's hand on an unsigned sweep", (it) => {
  it.effect("cancel: the task ends cancelled with the operator named and its sweep.cancelled event; asked again, nothing changes", () =>
    Effect.gen(function*() {
      const { repo, scope, task } = yield* newTask(0, 3_600)
      yield* setNow(60)
      expect(yield* intervene(scope, task.id, "cancel", "token 7")).toMatchObject({ _tag: "Done" })
      const view = Option.getOrThrow(yield* repo.find(scope, task.id))
      expect(view.task).toMatchObject({ status: "cancelled", reason: "cancelled by the operator (token 7)", updatedAt: sweepTime(60) })
      expect(view.webhook).toMatchObject({ eventType: "sweep.cancelled" })
      expect(yield* intervene(scope, task.id, "cancel", "token 7")).toEqual({ _tag: "Unchanged", message: "the sweep is cancelled already" })
    }))

  it.effect("retry: a task put off is due now, the tenant's view unchanged; the sweeper's next claim takes it", () =>
    Effect.gen(function*() {
      const { repo, scope, task } = yield* newTask(100, 3_600)
      yield* setNow(160)
      expect(yield* intervene(scope, task.id, "retry", "token 7")).toMatchObject({ _tag: "Done" })
      const after = Option.getOrThrow(yield* repo.find(scope, task.id)).task
      expect(after).toMatchObject({ status: "pending", stage: "waiting_energy", nextStepAt: sweepTime(160), updatedAt: task.updatedAt })
      const claimed = yield* repo.claim("nile", "sweeper", sweepTime(161), sweepTime(200), 10_000)
      expect(claimed.map((t) => t.id)).toContain(task.id)
    }))

  it.effect("a signed task, a task the sweeper holds, another tenant's or an unknown one is refused, unchanged", () =>
    Effect.gen(function*() {
      const { repo, scope, task } = yield* newTask(300, 300)
      const other = yield* Effect.flatMap(StorageFixtures, (f) => f.scope("nile"))
      yield* setNow(301)
      expect((yield* intervene(other, task.id, "cancel", "t")).message).toBe(`no sweep ${task.id} of this tenant`)
      // The sweeper holds it (a live lease): refused.
      const [held] = (yield* repo.claim("nile", "sweeper", sweepTime(300), sweepTime(330), 10_000)).filter((t) => t.id === task.id)
      expect((yield* intervene(scope, task.id, "cancel", "t")).message).toBe("the sweeper is stepping it at this moment: try again in a minute")
      // It signs the task: from then on, nobody but the chain settles it.
      yield* repo.save({ ...held!, status: "signed", stage: "ready", transaction: storedTransaction("ab".repeat(32)) }, "sweeper")
      yield* setNow(400)
      const refused = yield* intervene(scope, task.id, "cancel", "t")
      expect(refused).toMatchObject({ _tag: "Refused" })
      expect(refused.message).toContain("the sweep is signed")
      expect(Option.getOrThrow(yield* repo.find(scope, task.id)).task.status).toBe("signed")
    }))
})
