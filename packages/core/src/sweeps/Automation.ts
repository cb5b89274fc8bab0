import { Cause, Clock, Context, Duration, Effect, Layer } from "effect"
import { type Checkpoint, noCheckpoint } from "../engine/Checkpoint.js"
import { DatabaseWaits } from "../engine/DatabaseWaits.js"
import { engineComponents } from "../engine/EngineComponents.js"
import type { WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { AutomationLedger, type DueScope } from "./AutomationLedger.js"
import { NetworkResources } from "./NetworkResources.js"
import { type AutomationSettings, defaultAutomationSettings } from "./AutomationSettings.js"
import { Sweeps } from "./Sweeps.js"

// The estimate operation's own bound on wallets per call.
const estimateChunk = 100

export interface RoundSummary {
  readonly scope: DueScope["scope"]
  readonly candidates: number
  readonly created: number
  /** Candidates the estimate found not worth or not able to sweep now (fee over a cap, no way to pay). */
  readonly skipped: number
}

/**
 * The automation policy in the worker: on each scope's interval, every wallet at or above the
 * threshold that can start a sweep is estimated first, and only those whose fee fits the
 * scope's caps (`max_wallet_trx_fee`, `max_rental_cost`) get a task, made by the same create
 * as a manual sweep. A wallet left out is looked at again next round; no task is made to fail.
 */
const make = (settings: AutomationSettings, checkpoint: Checkpoint) =>
  Effect.gen(function*() {
    const ledger = yield* AutomationLedger
    const sweeps = yield* Sweeps
    // The estimate asks for the network's node and provider.
    const resources = yield* NetworkResources

    const round = (due: DueScope, at: Date) =>
      Effect.gen(function*() {
        const candidates = yield* ledger.candidates(due.scope, due.policy.threshold, settings.walletsPerRound)
        const sweepable: Array<WalletId> = []
        for (let i = 0; i < candidates.length; i += estimateChunk) {
          const estimate = yield* sweeps.estimate(due.scope, { walletIds: candidates.slice(i, i + estimateChunk), mode: "all", amount: null }).pipe(
            Effect.provideService(NetworkResources, resources)
          )
          for (const item of estimate.items) {
            if (item.sweepable && item.amount >= due.policy.threshold) sweepable.push(item.walletId)
          }
        }
        const created = sweepable.length === 0
          ? 0
          : (yield* sweeps.create(due.scope, { walletIds: sweepable, mode: "all", amount: null }, "automation", at)).created
        return { scope: due.scope, candidates: candidates.length, created, skipped: candidates.length - sweepable.length } satisfies RoundSummary
      })

    /**
     * Claims one due scope, runs its round and marks it run. A scope whose round fails waits for
     * its next interval; one whose worker dies mid-round is claimed again when the claim runs out.
     * One scope a claim, so each claim's time starts when its round does.
     */
    const claimAndRun = (network: Network) => Effect.gen(function*() {
      const at = new Date(yield* Clock.currentTimeMillis)
      const claimedUntil = new Date(at.getTime() + Duration.toMillis(settings.roundClaim))
      const due = yield* ledger.claimDue(network, at, claimedUntil, 1)
      if (due.length > 0) yield* checkpoint("automation:claimed")
      return yield* Effect.forEach(due, (scope) =>
        round(scope, at).pipe(
          Effect.tap((summary) =>
            summary.candidates === 0
              ? Effect.void
              : Effect.logInfo("automation round").pipe(
                Effect.annotateLogs({ tenant: summary.scope.tenantId, candidates: summary.candidates, created: summary.created, skipped: summary.skipped })
              )
          ),
          Effect.catchAllCause((cause) =>
            Effect.as(
              Effect.logWarning(`automation round of tenant ${scope.scope.tenantId} failed; next interval retries`, Cause.squash(cause)),
              { scope: scope.scope, candidates: 0, created: 0, skipped: 0 } satisfies RoundSummary
            )
          ),
          Effect.tap(() => ledger.finishRound(scope.scope, at, claimedUntil))
        ))
    })

    /** Runs the rounds of up to `scopesPerTick` due scopes of `network`, one after another. */
    const tick = (network: Network) => Effect.gen(function*() {
      const rounds: Array<RoundSummary> = []
      while (rounds.length < settings.scopesPerTick) {
        const ran = yield* claimAndRun(network)
        if (ran.length === 0) break
        rounds.push(...ran)
      }
      return rounds as ReadonlyArray<RoundSummary>
    })

    const run = (network: Network) => Effect.forever(
      tick(network).pipe(
        DatabaseWaits.watching(engineComponents.automation, network),
        Effect.catchAllCause((cause) => Effect.logError("automation tick failed", cause)),
        Effect.zipRight(Effect.sleep(settings.tickInterval))
      )
    )

    return { tick, run } as const
  })

export class Automation extends Context.Tag("@collector/core/Automation")<Automation, Effect.Effect.Success<ReturnType<typeof make>>>() {
  /** With `settings` over the defaults; `checkpoint` is the crash tests' (nothing in production). */
  static readonly layer = (settings: Partial<AutomationSettings> = {}, checkpoint: Checkpoint = noCheckpoint) =>
    Layer.effect(Automation, make({ ...defaultAutomationSettings, ...settings }, checkpoint))
}
