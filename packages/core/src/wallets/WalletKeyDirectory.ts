import { Context, type Effect } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { KeyStoreName } from "./WalletKey.js"

/** One wallet's key as an operator may see it: where it is, never what it is. */
export interface WalletKeyEntry {
  readonly walletId: WalletId
  readonly address: string
  readonly customId: string
  readonly store: KeyStoreName
  /** The token's label of a `pkcs11` key; null for a sealed local key (its blob is never listed). */
  readonly label: string | null
}

/**
 * Port: which store holds each wallet's key, for the operator (CLI). Reads no key material:
 * a local key is listed as its store only. Storage failures are defects.
 */
export class WalletKeyDirectory extends Context.Tag("@collector/core/WalletKeyDirectory")<
  WalletKeyDirectory,
  {
    /** The scope's wallets by ascending ID, those of `store` only when given. */
    readonly list: (scope: TenantScope, store?: KeyStoreName) => Effect.Effect<ReadonlyArray<WalletKeyEntry>>
  }
>() {}
