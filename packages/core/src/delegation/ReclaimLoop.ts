import { Cause, Clock, Context, Effect, Layer, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import { DatabaseWaits } from "../engine/DatabaseWaits.js"
import { engineComponents } from "../engine/EngineComponents.js"
import type { Network } from "../kernel/Network.js"
import { SweepRepository } from "../sweeps/SweepRepository.js"
import { isTerminal } from "../sweeps/SweepTask.js"
import { reclaimPass } from "./ReclaimPass.js"
import { ResourceAccounts } from "./ResourceAccounts.js"
import { defaultReclaimSettings, type ReclaimSettings } from "./ReclaimSettings.js"
import type { ReclaimOutcome } from "./StakeLoans.js"
import { makeStakeLoans } from "./StakeLoans.js"

/**
 * The engine's reclaim loop: for each resource account of the network (its default and the
 * tenants' own), one `reclaimPass` over its delegations whose sweep task is finished. It runs
 * once at start and then on its interval, so a delegation is taken back after its task ends
 * whatever crashed in between, and is retried until done. A task that no longer exists counts as
 * finished: nothing can use its energy any more.
 */
const make = (settings: ReclaimSettings) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<SweepRepository | ResourceAccounts | Effect.Effect.Context<ReturnType<ReturnType<typeof makeStakeLoans>["reclaimRow"]>>>()
    const repo = Context.get(context, SweepRepository)

    const taskFinished = (network: Network) => (taskId: Parameters<typeof repo.statusOf>[1]) =>
      Effect.map(repo.statusOf(network, taskId), Option.match({ onNone: () => true, onSome: isTerminal }))

    /** One pass over every resource account of the network; what each reclaim step did. */
    const pass = (network: Network) =>
      Effect.gen(function*() {
        // Counted from the chain's head when it is ahead of our clock: the node judges expiration by its head.
        const accounts = (yield* Effect.flatMap(ResourceAccounts, (a) => a.list())).filter((a) => a.network === network)
        // A network without a resource account lends nothing: no node call, no outage logged every pass.
        if (accounts.length === 0) return []
        const clock = yield* Clock.currentTimeMillis
        const head = yield* Effect.flatMap(Chain, (chain) => chain.headBlock)
        const now = new Date(Math.max(clock, head.timestamp.getTime()))
        const outcomes: Array<ReclaimOutcome> = []
        for (const account of accounts) {
          outcomes.push(...yield* reclaimPass(makeStakeLoans(account), network, taskFinished(network), now, settings.batchSize))
        }
        return outcomes
      }).pipe(Effect.provide(context))

    /** Passes forever, the first at once; a failed pass is logged and the next one tries again. */
    const run = (network: Network) =>
      Effect.forever(
        pass(network).pipe(
          DatabaseWaits.watching(engineComponents.reclaim, network),
          Effect.catchAllCause((cause) => Effect.logError("reclaim pass failed; retried on the next pass", Cause.pretty(cause))),
          Effect.zipRight(Effect.sleep(settings.interval))
        )
      )

    return { pass, run } as const
  })

export class ReclaimLoop extends Context.Tag("@collector/core/ReclaimLoop")<ReclaimLoop, Effect.Effect.Success<ReturnType<typeof make>>>() {
  static readonly layer = (settings: Partial<ReclaimSettings> = {}) => Layer.effect(ReclaimLoop, make({ ...defaultReclaimSettings, ...settings }))
}
