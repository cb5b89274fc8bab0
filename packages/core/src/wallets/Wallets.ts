import { Context, Effect, Layer, Option } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { TenantScope } from "../tenants/Scope.js"
import { TenantLimits } from "../tenants/TenantLimits.js"
import { SelectionTooLarge, WalletNotFound } from "./WalletErrors.js"
import { compareIds } from "../kernel/Int64Id.js"
import { unavailableReason } from "./Wallet.js"
import { WalletKeys } from "./WalletKeys.js"
import { maxSelection, type WalletFilters, type WalletQuery } from "./WalletQuery.js"
import { WalletRepository } from "./WalletRepository.js"

const make = Effect.gen(function*() {
  const repo = yield* WalletRepository
  const keys = yield* WalletKeys
  const limits = yield* TenantLimits
  return {
    // The ID is drawn first so that a token can label the key by the wallet it belongs to; an ID
    // whose insert is then refused (custom ID taken, limit) is simply never used.
    create: (scope: TenantScope, customId: string) =>
      Effect.gen(function*() {
        const id = yield* repo.drawId
        const generated = yield* keys.generate(id)
        return yield* repo.insert(scope, { id, customId, address: generated.address, key: generated.key }, limits.maxWalletsPerTenant)
      }),
    /** A page, and which wallets of the page or of `selected` cannot start a sweep now. */
    list: (scope: TenantScope, query: WalletQuery, selected: ReadonlyArray<WalletId>) =>
      Effect.gen(function*() {
        const page = yield* repo.list(scope, query)
        const onPage = new Set<string>(page.items.map((w) => w.id))
        const unavailableOnPage = page.items.filter((w) => unavailableReason(w) !== "").map((w) => w.id)
        const unavailableSelected = yield* repo.unavailable(scope, selected.filter((id) => !onPage.has(id)))
        const unavailable = [...unavailableOnPage, ...unavailableSelected].sort(compareIds)
        return { page, unavailable }
      }),
    /** Every matching ID, or `SelectionTooLarge` past `maxSelection` (one more is read to know). */
    select: (scope: TenantScope, filters: WalletFilters) =>
      Effect.gen(function*() {
        const ids = yield* repo.selectIds(scope, filters, maxSelection + 1)
        if (ids.length > maxSelection) return yield* new SelectionTooLarge({ limit: maxSelection })
        return { ids, unavailable: yield* repo.unavailable(scope, ids) }
      }),
    preview: (scope: TenantScope, ids: ReadonlyArray<WalletId>) =>
      Effect.gen(function*() {
        const wallets = yield* repo.findMany(scope, ids)
        const found = new Set(wallets.map((w) => w.id as string))
        const notFound = [...new Set(ids)].filter((id) => !found.has(id)).sort(compareIds)
        return { wallets, notFound }
      }),
    summary: (scope: TenantScope) => repo.summary(scope),
    get: (scope: TenantScope, id: WalletId) =>
      Effect.flatMap(repo.find(scope, id), Option.match({
        onNone: () => Effect.fail(new WalletNotFound({ walletId: id })),
        onSome: Effect.succeed
      }))
  } as const
})

/** Wallet use cases: a wallet's key is generated and sealed by the WalletKeys port alone. */
export class Wallets extends Context.Tag("@collector/core/Wallets")<Wallets, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Wallets, make)
}
