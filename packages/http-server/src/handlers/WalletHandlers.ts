import { HttpApiBuilder } from "@effect/platform"
import { ContractApi, CurrentApp, WalletIdentity as WireIdentity } from "@collector/api"
import { CustomIdTaken, type WalletId, Wallets } from "@collector/core"
import { Effect } from "effect"
import { toEnvelope } from "../ErrorMapping"
import { idempotentWrite } from "./Idempotent"
import { presentIdentity, presentWallet } from "./WalletPresenter"

export const WalletHandlers = HttpApiBuilder.group(ContractApi, "wallets", (handlers) =>
  Effect.gen(function*() {
    const wallets = yield* Wallets
    return handlers
      .handle("createWallet", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return yield* idempotentWrite(
            { tenantId: app.tenantId, network: app.network, operation: "wallets.create", requestId: payload.request_id },
            { success: WireIdentity, rejection: CustomIdTaken },
            Effect.map(wallets.create(app, payload.custom_id), presentIdentity)
          )
        }).pipe(toEnvelope))
      .handle("getWallet", ({ path }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return presentWallet(yield* wallets.get(app, path.id as WalletId))
        }).pipe(toEnvelope))
  }))
