import { HttpApiBuilder } from "@effect/platform"
import { ContractApi, CurrentApp, parseWalletFilters, parseWalletListQuery, WalletIdentity as WireIdentity, WalletList } from "@collector/api"
import { type Kernel, Wallets } from "@collector/core"
import { Effect, Either } from "effect"
import { invalidArgument, toEnvelope } from "../ErrorMapping.js"
import { type IdempotentWrapper, idempotentWrite } from "./Idempotent.js"
import { presentedOk } from "./PresentedOk.js"
import { presentIdentity, presentPreview, presentWallet } from "./WalletPresenter.js"

/**
 * The wallet operations, creation run in `write` (the idempotency wrapper; the simulator's
 * `unwrapped-create` plant passes one that calls the use case directly).
 */
export const walletHandlers = (write: IdempotentWrapper) => HttpApiBuilder.group(ContractApi, "wallets", (handlers) =>
  Effect.gen(function*() {
    const wallets = yield* Wallets.Wallets
    return handlers
      .handle("createWallet", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return yield* write(
            { tenantId: app.tenantId, network: app.network, operation: "wallets.create", requestId: payload.request_id },
            { success: WireIdentity, rejection: Wallets.CustomIdTaken },
            Effect.map(wallets.create(app, payload.custom_id), presentIdentity)
          )
        }).pipe(toEnvelope))
      .handle("listWallets", ({ urlParams }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const parsed = parseWalletListQuery(urlParams)
          if (Either.isLeft(parsed)) return yield* invalidArgument(parsed.left)
          const { page, unavailable } = yield* wallets.list(app, parsed.right.query, parsed.right.selected)
          return presentedOk(WalletList, {
            network: app.network,
            items: page.items.map(presentWallet),
            total: page.total,
            page: parsed.right.query.page,
            page_size: parsed.right.query.pageSize,
            unavailable_wallet_ids: unavailable
          })
        }).pipe(toEnvelope))
      .handle("selectWallets", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const filters = parseWalletFilters(payload.filters ?? {})
          if (Either.isLeft(filters)) return yield* invalidArgument(filters.left)
          const { ids, unavailable } = yield* wallets.select(app, filters.right)
          return { network: app.network, wallet_ids: ids, total: ids.length, unavailable_wallet_ids: unavailable }
        }).pipe(toEnvelope))
      .handle("previewWallets", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const { notFound, wallets: found } = yield* wallets.preview(app, payload.wallet_ids as ReadonlyArray<Kernel.WalletId>)
          return {
            network: app.network,
            items: found.map(presentPreview),
            not_found_ids: notFound
          }
        }).pipe(toEnvelope))
      .handle("getWallet", ({ path }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return presentWallet(yield* wallets.get(app, path.id as Kernel.WalletId))
        }).pipe(toEnvelope))
  }))

export const WalletHandlers = walletHandlers(idempotentWrite)
