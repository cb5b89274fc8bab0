import { Clock, Duration, Effect, Option } from "effect"
import type { TenantScope } from "../tenants/Scope.js"
import { end, later } from "./SweepStep.js"
import { sweepOutcome } from "./SweepOutcome.js"
import { SweepRepository } from "./SweepRepository.js"
import { isTerminal, type SweepStatus, type SweepTaskId } from "./SweepTask.js"

/**
 * An operator's hand on one sweep that has not been signed: cancel it, or have the sweeper look
 * at it now instead of at its next planned step. A signed task is never touched: its transaction
 * may be on chain already, and only the chain settles it.
 */
export type Intervention = "cancel" | "retry"

export type InterventionResult =
  | { readonly _tag: "Done"; readonly message: string }
  | { readonly _tag: "Unchanged"; readonly message: string }
  | { readonly _tag: "Refused"; readonly message: string }

/** Before the signature: nothing of the task has left the process. */
export const unsignedStatuses: ReadonlyArray<SweepStatus> = ["pending", "ready"]

/** How long the operator's claim may hold the task: one write, then it is released. */
const holdMillis = 30_000

const notActedOn = (scope: TenantScope, id: SweepTaskId, intervention: Intervention) =>
  Effect.gen(function*() {
    const found = yield* (yield* SweepRepository).find(scope, id)
    if (Option.isNone(found)) return { _tag: "Refused", message: `no sweep ${id} of this tenant` } as const
    const { status } = found.value.task
    if (isTerminal(status)) return { _tag: "Unchanged", message: `the sweep is ${status} already` } as const
    if (!unsignedStatuses.includes(status)) {
      return { _tag: "Refused", message: `the sweep is ${status}: it is signed, and only the chain settles it now, so it cannot be ${intervention === "cancel" ? "cancelled" : "retried"}` } as const
    }
    return { _tag: "Refused", message: "the sweeper is stepping it at this moment: try again in a minute" } as const
  })

/**
 * Cancels (`cancel`) or steps now (`retry`) an unsigned task of the scope for `operator`, through
 * a claim of its own like a sweeper's, so a sweeper stepping the task at the same moment and the
 * operator never both write it. A cancellation is the task's terminal write, with its
 * `sweep.cancelled` event, as the sweeper's own; energy lent to it is reclaimed as for any
 * finished task. Asked twice, the second says it changed nothing.
 */
export const intervene = (scope: TenantScope, id: SweepTaskId, intervention: Intervention, operator: string) =>
  Effect.gen(function*() {
    const repo = yield* SweepRepository
    const now = new Date(yield* Clock.currentTimeMillis)
    const worker = `operator/${operator}`
    const claimed = yield* repo.claimOne(scope, id, unsignedStatuses, worker, now, new Date(now.getTime() + holdMillis))
    if (Option.isNone(claimed)) return yield* notActedOn(scope, id, intervention)
    const task = claimed.value
    if (intervention === "cancel") {
      const finished = end(task, now, "cancelled", `cancelled by the operator (${operator})`)
      const written = finished._tag === "Finish" && (yield* repo.finish(sweepOutcome(finished.task), worker))
      return written
        ? { _tag: "Done", message: "cancelled: the tenant is told by a sweep.cancelled event" } as const
        : { _tag: "Refused", message: "the sweeper stepped it meanwhile: look again" } as const
    }
    const due = task.nextStepAt.getTime() <= now.getTime()
    // Saving releases the claim; the next sweeper pass takes the task at once.
    const saved = yield* repo.save(later(task, now, Duration.zero).task, worker)
    if (!saved) return { _tag: "Refused", message: "the sweeper stepped it meanwhile: look again" } as const
    return due
      ? { _tag: "Unchanged", message: "the sweep was due already: the sweeper takes it at its next pass" } as const
      : { _tag: "Done", message: "the sweeper looks at it at its next pass instead of waiting" } as const
  }).pipe(Effect.withSpan("Sweeps.intervene", { attributes: { intervention } }))
