import { Context, type Effect, type Option } from "effect"
import type { WalletId } from "./Ids.js"
import type { TenantScope } from "./Scope.js"
import type { Wallet, WalletIdentity } from "./Wallet.js"
import type { CustomIdTaken } from "./WalletErrors.js"
import type { Page } from "./Page.js"
import type { WalletFilters, WalletQuery, WalletSummary } from "./WalletQuery.js"
import type { WalletKey } from "./WalletKey.js"

export interface NewWallet {
  readonly customId: string
  readonly address: string
  readonly key: WalletKey
}

/** Port: wallets of one tenant scope. Storage failures are defects. */
export class WalletRepository extends Context.Tag("@collector/core/WalletRepository")<
  WalletRepository,
  {
    readonly insert: (scope: TenantScope, wallet: NewWallet) => Effect.Effect<WalletIdentity, CustomIdTaken>
    readonly find: (scope: TenantScope, id: WalletId) => Effect.Effect<Option.Option<Wallet>>
    readonly findByAddress: (scope: TenantScope, address: string) => Effect.Effect<Option.Option<Wallet>>
    readonly list: (scope: TenantScope, query: WalletQuery) => Effect.Effect<Page<Wallet>>
    /** Every ID matching the filters, ascending. */
    readonly selectIds: (scope: TenantScope, filters: WalletFilters) => Effect.Effect<ReadonlyArray<WalletId>>
    readonly findMany: (scope: TenantScope, ids: ReadonlyArray<WalletId>) => Effect.Effect<ReadonlyArray<Wallet>>
    /** Of `ids`, those that cannot start a sweep now (collecting, or the collection address). */
    readonly unavailable: (scope: TenantScope, ids: ReadonlyArray<WalletId>) => Effect.Effect<ReadonlyArray<WalletId>>
    readonly summary: (scope: TenantScope) => Effect.Effect<WalletSummary>
  }
>() {}
