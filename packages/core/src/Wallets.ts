import { Effect, Option } from "effect"
import type { WalletId } from "./Ids"
import type { TenantScope } from "./Scope"
import { WalletNotFound } from "./WalletErrors"
import { WalletKeys } from "./WalletKeys"
import { WalletRepository } from "./WalletRepository"

/** Wallet use cases: a wallet's key is generated and sealed by the WalletKeys port alone. */
export class Wallets extends Effect.Service<Wallets>()("@collector/core/Wallets", {
  effect: Effect.gen(function*() {
    const repo = yield* WalletRepository
    const keys = yield* WalletKeys
    return {
      create: (scope: TenantScope, customId: string) =>
        Effect.flatMap(keys.generate, (generated) =>
          repo.insert(scope, { customId, address: generated.address, sealedKey: generated.sealedKey })),
      get: (scope: TenantScope, id: WalletId) =>
        Effect.flatMap(repo.find(scope, id), Option.match({
          onNone: () => Effect.fail(new WalletNotFound({ walletId: id })),
          onSome: Effect.succeed
        }))
    } as const
  })
}) {}
