import { Cause, Clock, Context, Duration, Effect, Exit, Layer, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import { type Checkpoint, noCheckpoint } from "../engine/Checkpoint.js"
import { makeClaimNames } from "../engine/ClaimNames.js"
import { ComponentStatus } from "../engine/ComponentStatus.js"
import { DatabaseWaits } from "../engine/DatabaseWaits.js"
import { engineComponents } from "../engine/EngineComponents.js"
import { makeOutageLog } from "../engine/OutageLog.js"
import type { ChainView } from "./ChainView.js"
import { checkHistory } from "./HistoryCheck.js"
import type { Network } from "../kernel/Network.js"
import { traced } from "../kernel/Traced.js"
import { sweepOutcome } from "./SweepOutcome.js"
import { countFinished, sampleUnfinished } from "./SweepMetrics.js"
import { SettingsRepository } from "../settings/SettingsRepository.js"
import { passSettings } from "./PassSettings.js"
import { SweepRepository } from "./SweepRepository.js"
import { reconcileOutflows } from "./Reconciliation.js"
import { ScanLedger } from "../scanning/ScanLedger.js"
import type { StepResult } from "./SweepStep.js"
import { later } from "./SweepStep.js"
import { stepOf } from "./SweepStepper.js"
import { defaultSweeperSettings, type SweeperSettings } from "./SweeperSettings.js"
import type { SweepTask } from "./SweepTask.js"

const stepAttributes = (outcome: { readonly saved: boolean; readonly failed: boolean; readonly next: string }) => ({
  "sweep.next_state": outcome.next,
  "sweep.saved": outcome.saved,
  "sweep.failed": outcome.failed
})

export interface PassSummary {
  readonly claimed: number
  readonly saved: number
  /** Steps whose save lost the compare-and-set (another worker took the task). */
  readonly lost: number
  readonly failed: number
}

/**
 * The sweeper: claims due tasks of a network, takes one step on each, and saves every step in its
 * own transaction under the claim (named after `holder`, one name per claim). A step that fails
 * (node or provider down) leaves the task as it was, to be looked at again after the retry
 * interval; a claim whose statements failed is handed back once the database answers. The
 * Chain in context must be the node of the network it is called with: one Sweeper per network.
 */
const make = (settings: SweeperSettings, checkpoint: Checkpoint) =>
  Effect.gen(function*() {
    const repo = yield* SweepRepository
    // Every storage provides it (StoragePorts); a harness that runs the sweeper alone (bench/)
    // may leave it out, and then has no outflows to reconcile.
    const ledger = yield* Effect.serviceOption(ScanLedger)
    const outages = makeOutageLog("sweeper")
    const status = yield* ComponentStatus
    const chain = yield* Chain
    const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof stepOf>>>()
    // Shared by the run loop and every `pass` of this sweeper: each claim under a name of its own.
    const claimNames = makeClaimNames()

    const write = (result: StepResult, holder: string) =>
      result._tag === "Finish"
        ? repo.finish(sweepOutcome(result.task), holder)
        : repo.save(result.task, holder)

    const save = (result: StepResult, holder: string) => {
      const state = `${result.task.status}/${result.task.stage}`
      return checkpoint(`before:${state}`).pipe(
        Effect.zipRight(write(result, holder)),
        Effect.tap((saved) => (saved && result._tag === "Finish" ? countFinished(result.task) : Effect.void)),
        Effect.tap((saved) => (saved ? checkpoint(`after:${state}`) : Effect.void))
      )
    }

    /** One step and its save, in a span of its own while tracing is on (its node and provider calls, its statements). */
    const stepOne = (task: SweepTask, now: Date, view: ChainView, holder: string, passContext: typeof context) =>
      stepOf(task, now, settings, view).pipe(
        Effect.provide(passContext),
        Effect.catchAllCause((cause) => {
          const error = Cause.squash(cause)
          return Effect.as(
            Effect.logWarning(`sweep task ${task.id} (${task.status}/${task.stage}): step failed, retrying later`, error).pipe(
              Effect.zipRight(Effect.annotateCurrentSpan("sweep.error", error instanceof Error ? error.message : String(error)))
            ),
            { ...later(task, now, settings.retryInterval), failed: true }
          )
        }),
        Effect.flatMap((result) =>
          Effect.map(save(result, holder), (saved) => ({ saved, failed: "failed" in result, next: `${result.task.status}/${result.task.stage}` }))
        ),
        traced(
          "sweep.step",
          { attributes: { "sweep.task_id": task.id, "sweep.network": task.network, "sweep.state": `${task.status}/${task.stage}` } },
          (exit) => (Exit.isSuccess(exit) ? stepAttributes(exit.value as { saved: boolean; failed: boolean; next: string }) : {})
        )
      )

    const chainView = Effect.all({ head: chain.headBlock, solidified: chain.solidifiedBlock, parameters: chain.parameters }, { concurrency: 3 })

    /** Claimed tasks handed back untouched, to be looked at after the retry interval. */
    const release = (tasks: ReadonlyArray<SweepTask>, now: Date, holder: string) =>
      Effect.forEach(tasks, (task) => Effect.map(save(later(task, now, settings.retryInterval), holder), (saved) => ({ saved, failed: true })))

    /**
     * Transfers out of our wallets that no task holds, first: a task whose signed record was lost
     * gets its txid back before this pass could prepare it again and sign a second transfer.
     */
    const reconcile = (network: Network, holder: string) => {
      if (Option.isNone(ledger)) return Effect.void
      const claimer = claimNames.next(holder)
      return reconcileOutflows(network, claimer).pipe(
        Effect.provideService(ScanLedger, ledger.value),
        Effect.provideService(SweepRepository, repo),
        claimNames.abandonOnFailure(network, claimer),
        Effect.catchAllCause((cause) => Effect.logWarning("sweep reconciliation failed, retrying next pass", cause))
      )
    }

    /**
     * Tasks that earlier claims of this sweeper left claimed when a statement failed, given back
     * as soon as the database answers, to be taken up by this pass or any other sweeper's: their
     * lease would otherwise keep them waiting (SWEEP_LEASE_TTL_MS) for nothing.
     */
    const handBack = (network: Network) =>
      claimNames.handBack(network, (names) =>
        Effect.tap(repo.handBack(network, names), (ids) =>
          ids.length === 0
            ? Effect.void
            : Effect.logWarning(`${ids.length} sweep tasks of abandoned claims handed back`).pipe(Effect.annotateLogs({ task_ids: ids.join(",") }))))

    /** One claim of due tasks, stepped concurrently, with one read of the chain's state for all of them. */
    const claimAndStep = (network: Network, claimer: string) => Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      const until = new Date(now.getTime() + Duration.toMillis(settings.leaseTtl))
      const tasks = yield* repo.claim(network, claimer, now, until, settings.batchSize)
      const view = tasks.length === 0 ? undefined : yield* Effect.either(chainView)
      const outcomes = view === undefined
        ? []
        : view._tag === "Left"
        ? yield* Effect.zipRight(outages.failed(network, `${view.left.reason} (claimed tasks wait)`), release(tasks, now, claimer))
        : yield* Effect.zipRight(
          outages.reached(network),
          Effect.flatMap(Effect.provide(passSettings, context), (settingsOfPass) => {
            const passContext = Context.add(context, SettingsRepository, settingsOfPass)
            return Effect.forEach(tasks, (task) => stepOne(task, now, view.right, claimer, passContext), { concurrency: settings.concurrency })
          })
        )
      return {
        claimed: tasks.length,
        saved: outcomes.filter((o) => o.saved).length,
        lost: outcomes.filter((o) => !o.saved).length,
        failed: outcomes.filter((o) => o.failed).length
      } satisfies PassSummary
    })

    /** The abandoned claims handed back, the outflows reconciled, then one claim of due tasks. */
    const pass = (network: Network, holder: string) => Effect.gen(function*() {
      yield* handBack(network)
      yield* reconcile(network, holder)
      const claimer = claimNames.next(holder)
      return yield* claimAndStep(network, claimer).pipe(claimNames.abandonOnFailure(network, claimer))
    })

    const report = (network: Network, state: string, detail: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => status.report({ component: "sweeper", network, status: state, detail, updatedAt: new Date(now) }))

    /** Until the node is known to keep transaction history (or cannot be shown not to), nothing is claimed. */
    const historyKept = (network: Network) => Effect.gen(function*() {
      while (true) {
        const verdict = yield* Effect.either(Effect.provide(checkHistory, context))
        if (verdict._tag === "Left" || verdict.right !== "missing") return
        const detail = "the node keeps no transaction history (a recent transfer has no receipt): sweeps could not be settled; " +
          "use a full node with storage.transHistory.switch on"
        yield* Effect.logError(detail)
        yield* report(network, "stopped", detail)
        yield* Effect.sleep(settings.retryInterval)
      }
    })

    /** Passes forever: straight on while tasks are due, resting when none are. */
    const run = (network: Network, holder: string) => Effect.gen(function*() {
      yield* historyKept(network)
      yield* report(network, "ok", "started")
      let lastReport = 0
      while (true) {
        const summary = yield* pass(network, holder).pipe(
          DatabaseWaits.watching(engineComponents.sweeper, network),
          Effect.catchAllCause((cause) =>
            Effect.as(Effect.zipRight(Effect.logError("sweeper pass failed", cause), report(network, "degraded", Cause.pretty(cause).split("\n")[0] ?? "")), null)
          )
        )
        const now = yield* Clock.currentTimeMillis
        if (summary !== null && now - lastReport >= 10_000) {
          lastReport = now
          yield* report(network, summary.failed > 0 ? "degraded" : "ok", `last pass: ${summary.claimed} claimed, ${summary.saved} saved, ${summary.failed} retrying`)
          // The status gauge is sampled with the heartbeat: one grouped count, not one per pass.
          yield* repo.unfinishedByStatus(network).pipe(
            Effect.flatMap((counts) => sampleUnfinished(network, counts)),
            Effect.catchAllCause((cause) => Effect.logWarning("sweep status counts not read", cause))
          )
        }
        if (summary === null || summary.claimed < settings.batchSize) yield* Effect.sleep(settings.idleInterval)
      }
    })

    return { pass, run } as const
  })

export class Sweeper extends Context.Tag("@collector/core/Sweeper")<Sweeper, Effect.Effect.Success<ReturnType<typeof make>>>() {
  /** With `settings` over the defaults; `checkpoint` is the crash tests' (nothing in production). */
  static readonly layer = (settings: Partial<SweeperSettings> = {}, checkpoint: Checkpoint = noCheckpoint) =>
    Layer.effect(Sweeper, make({ ...defaultSweeperSettings, ...settings }, checkpoint))
}
