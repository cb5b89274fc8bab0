import { Context, type Effect, type Option } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { Wallet, WalletIdentity } from "./Wallet.js"
import type { CustomIdTaken, WalletLimitReached } from "./WalletErrors.js"
import type { Page } from "../kernel/Page.js"
import type { WalletFilters, WalletQuery, WalletSummary } from "./WalletQuery.js"
import type { WalletKey } from "./WalletKey.js"

export interface NewWallet {
  /** The ID drawn with `drawId` (a key store may have labelled the key by it); absent, the store assigns the next. */
  readonly id?: WalletId
  readonly customId: string
  readonly address: string
  readonly key: WalletKey
}

/** Port: wallets of one tenant scope. Storage failures are defects. */
export class WalletRepository extends Context.Tag("@collector/core/WalletRepository")<
  WalletRepository,
  {
    /**
     * With `maxWallets`, refused (`WalletLimitReached`) when the tenant already holds that many
     * wallets over all its networks; concurrent creations may each see the last free place.
     */
    /** A wallet ID never handed out before, drawn from the same sequence `insert` assigns from. */
    readonly drawId: Effect.Effect<WalletId>
    readonly insert: (scope: TenantScope, wallet: NewWallet, maxWallets?: number) => Effect.Effect<WalletIdentity, CustomIdTaken | WalletLimitReached>
    readonly find: (scope: TenantScope, id: WalletId) => Effect.Effect<Option.Option<Wallet>>
    readonly findByAddress: (scope: TenantScope, address: string) => Effect.Effect<Option.Option<Wallet>>
    readonly list: (scope: TenantScope, query: WalletQuery) => Effect.Effect<Page<Wallet>>
    /** Every ID matching the filters, ascending; the lowest `limit` of them when given. */
    readonly selectIds: (scope: TenantScope, filters: WalletFilters, limit?: number) => Effect.Effect<ReadonlyArray<WalletId>>
    readonly findMany: (scope: TenantScope, ids: ReadonlyArray<WalletId>) => Effect.Effect<ReadonlyArray<Wallet>>
    /** Of `ids`, those that cannot start a sweep now (collecting, or the collection address). */
    readonly unavailable: (scope: TenantScope, ids: ReadonlyArray<WalletId>) => Effect.Effect<ReadonlyArray<WalletId>>
    readonly summary: (scope: TenantScope) => Effect.Effect<WalletSummary>
  }
>() {}
