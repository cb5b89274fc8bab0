import { expect, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Sim } from "../chain/testing/SimWorld.js"
import { makeRecordingTracer } from "@collector/core/testing"
import { createTask, pass, roundsUntilDone, seedScope, SweepWorld, trx, usdt } from "./testing/SweepWorld.js"

layer(SweepWorld, { excludeTestServices: true, timeout: 120_000 })("sweep step spans", (it) => {
  it.effect("while tracing is on: a span per step, from the state it was in to the next, with its node calls inside", () =>
    Effect.gen(function*() {
      const recording = makeRecordingTracer()
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = scope.wallets[0]!
      const sim = yield* Sim
      yield* sim.chain.activate(w.address, trx(20n))
      yield* sim.chain.mintUsdt(w.address, usdt(10n))
      yield* sim.chain.mine(25)
      const created = yield* createTask(scope, w)
      const { seen, task } = yield* roundsUntilDone(pass().pipe(Effect.withTracer(recording.tracer)))(scope, created.id)
      expect(task.status).toBe("succeeded")
      const steps = recording.ended.filter((span) => span.name === "sweep.step")
      // A step that waits (for the broadcast to land) leaves the state as it was: each change once.
      const states = steps.map((span) => span.attributes.get("sweep.next_state"))
      expect(states.filter((state, i) => state !== states[i - 1])).toEqual(seen)
      for (const step of steps) {
        expect(step.attributes.get("sweep.task_id")).toBe(created.id)
        expect(step.attributes.get("sweep.saved")).toBe(true)
        expect(step.attributes.get("sweep.failed")).toBe(false)
        expect(Exit.isSuccess(step.exit)).toBe(true)
      }
      // The node calls a step makes are in its trace, under it.
      const stepIds = new Set(steps.map((span) => span.spanId))
      const calls = recording.ended.filter((span) => span.name.startsWith("tron.node ") && span.parentSpanId !== undefined && stepIds.has(span.parentSpanId))
      expect(calls.length).toBeGreaterThan(0)
    }))
})
