import { Context, type Effect, type Option } from "effect"
import type { WalletId } from "./Ids"
import type { TenantScope } from "./Scope"
import type { Sealed } from "./SecretBox"
import type { Wallet, WalletIdentity } from "./Wallet"
import type { CustomIdTaken } from "./WalletErrors"

export interface NewWallet {
  readonly customId: string
  readonly address: string
  readonly sealedKey: Sealed
}

/** Port: wallets of one tenant scope. Storage failures are defects. */
export class WalletRepository extends Context.Tag("@collector/core/WalletRepository")<
  WalletRepository,
  {
    readonly insert: (scope: TenantScope, wallet: NewWallet) => Effect.Effect<WalletIdentity, CustomIdTaken>
    readonly find: (scope: TenantScope, id: WalletId) => Effect.Effect<Option.Option<Wallet>>
  }
>() {}
