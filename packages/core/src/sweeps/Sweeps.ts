import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { resourceAccountFor } from "../delegation/ResourceAccountFor.js"
import { ResourceAccounts } from "../delegation/ResourceAccounts.js"
import type { WalletId } from "../kernel/Ids.js"
import { compareIds } from "../kernel/Int64Id.js"
import type { TenantScope } from "../tenants/Scope.js"
import { effectiveSettings } from "../settings/Settings.js"
import { SettingsRepository } from "../settings/SettingsRepository.js"
import { TenantLimits } from "../tenants/TenantLimits.js"
import { WalletRepository } from "../wallets/WalletRepository.js"
import { EstimateBudgetExhausted, estimateCost, makeEstimateBudget } from "./EstimateBudget.js"
import { NetworkResources } from "./NetworkResources.js"
import { type Ineligible, ineligibility, walletCollecting, walletNotFound } from "./SweepEligibility.js"
import { SweepNotFound } from "./SweepErrors.js"
import { type SweepEstimate, estimateTotal, estimateWallet, SweepEstimateUnavailable } from "./SweepEstimate.js"
import { type SweepDraft, type SweepQuery, SweepRepository } from "./SweepRepository.js"
import { SweepSettings } from "./SweepSettings.js"
import type { SweepMode, SweepOrigin, SweepTask, SweepTaskId } from "./SweepTask.js"

/** What a create or an estimate asks for; `amount` is given exactly for `fixed` (positive). */
export interface SweepRequest {
  readonly walletIds: ReadonlyArray<WalletId>
  readonly mode: SweepMode
  readonly amount: bigint | null
}

/** One wallet of a create batch, in request order: its new task or why it got none. */
export type SweepItemResult =
  | { readonly walletId: WalletId; readonly ok: true; readonly task: SweepTask }
  | { readonly walletId: WalletId; readonly ok: false; readonly failure: Ineligible["failure"]; readonly message: string }

export interface SweepBatch {
  readonly items: ReadonlyArray<SweepItemResult>
  readonly created: number
  readonly failed: number
}

/** Estimates read wallets from the node a few at a time: the adapter's request budget paces them anyway. */
const estimateConcurrency = 4

const checkAmount = (request: Pick<SweepRequest, "mode" | "amount">) =>
  (request.mode === "fixed") === (request.amount !== null) && (request.amount === null || request.amount > 0n)
    ? Effect.void
    : Effect.dieMessage(`sweep request: mode ${request.mode} with amount ${request.amount}`)

const make = Effect.gen(function*() {
  const wallets = yield* WalletRepository
  const settings = yield* SettingsRepository
  const repository = yield* SweepRepository
  const accounts = yield* ResourceAccounts
  // Read once, where the service is built: that is where an app provides its settings.
  const { preparationLimit } = yield* SweepSettings
  const estimateBudget = makeEstimateBudget((yield* TenantLimits).estimateNodeRequestsPerMinute)

  /**
   * One task per eligible wallet; the rest get a per-item failure. The store keeps the rule of
   * one unfinished task per wallet: a wallet it skipped (a task created meanwhile) is
   * WALLET_COLLECTING, as is a wallet named twice in one batch after its first mention.
   */
  const create = (scope: TenantScope, request: SweepRequest, origin: SweepOrigin, at: Date) =>
    Effect.gen(function*() {
      yield* checkAmount(request)
      const current = effectiveSettings(yield* settings.get(scope))
      const found = new Map((yield* wallets.findMany(scope, request.walletIds)).map((w) => [w.id as string, w]))
      const prepareBy = new Date(at.getTime() + Duration.toMillis(preparationLimit))
      const drafted = new Set<string>()
      const planned = request.walletIds.map((id): SweepDraft | Ineligible => {
        const wallet = found.get(id)
        if (wallet === undefined) return walletNotFound(id)
        if (drafted.has(id)) return walletCollecting(id)
        const blocked = ineligibility(wallet, current.collection)
        if (blocked !== null) return blocked
        drafted.add(id)
        return {
          walletId: wallet.id,
          address: wallet.address,
          mode: request.mode,
          requestedAmount: request.mode === "fixed" ? request.amount : null,
          minimumAmount: origin === "automation" ? current.automation.threshold : null,
          destination: current.collection.address,
          origin,
          maxWalletTrxFee: current.automation.maxWalletTrxFee,
          prepareBy
        }
      })
      const drafts = planned.filter((p): p is SweepDraft => "walletId" in p)
      const inserted = drafts.length === 0 ? [] : yield* repository.insert(scope, drafts, at)
      const tasks = new Map(inserted.map((t) => [t.walletId as string, t]))
      const claimed = new Set<string>()
      const items = planned.map((p, i): SweepItemResult => {
        const walletId = request.walletIds[i]!
        if (!("walletId" in p)) return { walletId, ok: false, failure: p.failure, message: p.message }
        const task = tasks.get(walletId)
        if (task === undefined || claimed.has(walletId)) {
          const collecting = walletCollecting(walletId)
          return { walletId, ok: false, failure: collecting.failure, message: collecting.message }
        }
        claimed.add(walletId)
        return { walletId, ok: true, task }
      })
      const created = items.filter((i) => i.ok).length
      return { items, created, failed: items.length - created } satisfies SweepBatch
    })

  /**
   * Read-only: what sweeping each wallet would need and cost now, from the scope network's
   * node and energy provider (NetworkResources) and the scope's automation policy.
   */
  const estimate = (scope: TenantScope, request: SweepRequest) =>
    Effect.gen(function*() {
      yield* checkAmount(request)
      const resources = yield* NetworkResources
      const chain = yield* resources.chain(scope.network)
      const provider = yield* resources.energyProvider(scope.network)
      const current = effectiveSettings(yield* settings.get(scope))
      const lender = Option.match(yield* Effect.provideService(resourceAccountFor(scope.network, scope.tenantId), ResourceAccounts, accounts), {
        onNone: () => null,
        onSome: (account) => account.address
      })
      const requested = [...new Set<string>(request.walletIds)] as Array<WalletId>
      const found = new Map((yield* wallets.findMany(scope, requested)).map((w) => [w.id as string, w]))
      const notFound = requested.filter((id) => !found.has(id)).sort(compareIds)
      const present = requested.flatMap((id) => found.get(id) ?? [])
      // The tenant's share of the operator's node budget, taken whole before the node is asked.
      const budget = estimateBudget(`${scope.tenantId}/${scope.network}`, estimateCost(present.length), yield* Clock.currentTimeMillis)
      if (!budget.taken) return yield* new EstimateBudgetExhausted({ retryAfterSeconds: budget.retryAfterSeconds })
      const parameters = present.length === 0 ? undefined : yield* chain.parameters
      const items = parameters === undefined ? [] : yield* Effect.forEach(present, (wallet) =>
        estimateWallet(wallet, {
          chain,
          provider,
          parameters,
          collection: current.collection,
          policy: current.automation,
          request,
          lender
        }), { concurrency: estimateConcurrency })
      return { items, notFound, total: estimateTotal(items) } satisfies SweepEstimate
    }).pipe(
      Effect.catchTags({
        ChainUnavailable: (e) =>
          Effect.zipRight(
            Effect.logWarning("sweep estimate: node unavailable", e.reason),
            Effect.fail(new SweepEstimateUnavailable({ network: scope.network }))
          ),
        ChainRejected: (e) =>
          Effect.zipRight(
            Effect.logWarning("sweep estimate: node answered with something unusable", e.reason),
            Effect.fail(new SweepEstimateUnavailable({ network: scope.network }))
          )
      })
    )

  return {
    create,
    estimate,
    list: (scope: TenantScope, query: SweepQuery) => repository.list(scope, query),
    get: (scope: TenantScope, id: SweepTaskId) =>
      Effect.flatMap(repository.find(scope, id), Option.match({
        onNone: () => Effect.fail(new SweepNotFound({ taskId: id })),
        onSome: Effect.succeed
      })),
    /** Unfinished tasks of the scope: the dashboard's `pending_tasks`. */
    pendingCount: (scope: TenantScope) => repository.unfinishedCount(scope)
  } as const
})

/**
 * Sweep task operations of one tenant scope. `create` is shared by the create operation and
 * the automation policy (origin tells them apart) and knows nothing of HTTP or idempotency.
 */
export class Sweeps extends Context.Tag("@collector/core/Sweeps")<Sweeps, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Sweeps, make)
}
