import { Context, type Effect, type Option } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { Sealed } from "./SecretBox.js"

/**
 * The columns that hold sealed values, in the order a walk visits them. Each row of such a column
 * has an int64 row id (the key check's is 1, an app's its app ID, a wallet key's its wallet ID, a
 * resource account's the id it was given when stored).
 */
export const sealedColumns = [
  "master_key_check.sealed",
  "apps.secret_sealed",
  "apps.webhook_key_sealed",
  "wallet_keys.sealed_key",
  "resource_accounts.sealed_key"
] as const
export type SealedColumn = (typeof sealedColumns)[number]

/** A place in the walk over every sealed value: a column, and a row id in it (canonical int64 text). */
export interface SealedPosition {
  readonly column: SealedColumn
  readonly rowId: string
}

/** What a sealed value belongs to, in the core's terms: enough to name the place it was sealed for. */
export type SealedOwner =
  | { readonly _tag: "KeyCheck" }
  | { readonly _tag: "AppSecret"; readonly tenantId: TenantId; readonly network: Network }
  | { readonly _tag: "WebhookKey"; readonly tenantId: TenantId; readonly network: Network }
  | { readonly _tag: "WalletKey"; readonly address: string }
  | { readonly _tag: "ResourceAccountKey"; readonly address: string }

export interface SealedEntry {
  readonly position: SealedPosition
  readonly owner: SealedOwner
  readonly sealed: Sealed
}

/** How far a re-seal under the master key `keyId` has walked, and what it did so far. */
export interface ResealProgress {
  readonly keyId: string
  /** The last position handled; null before the first batch. */
  readonly after: SealedPosition | null
  readonly resealed: number
  /** Already sealed as the current key seals. */
  readonly current: number
  /** Changed by someone else between the read and the write (re-sealed by that writer). */
  readonly changed: number
  /** Could not be opened with any key this process has. */
  readonly unreadable: number
}

export interface KeyIdCount {
  readonly keyId: string
  readonly count: number
}

/**
 * Storage port: every sealed value the store keeps, for re-sealing them under a new master key,
 * and the key check, the known value sealed at first start that tells whether a master key is the
 * one the store was sealed with.
 */
export class SealedValues extends Context.Tag("@collector/core/SealedValues")<
  SealedValues,
  {
    /**
     * Up to `limit` values after `after` (from the start when null), in `sealedColumns` order and
     * by row id within a column.
     */
    readonly page: (after: SealedPosition | null, limit: number) => Effect.Effect<ReadonlyArray<SealedEntry>>
    /**
     * Stores `next` in place of `expected` (compare-and-set on the key id and the bytes); false
     * when the value is no longer `expected` or the row is gone, and nothing is written then.
     */
    readonly replace: (position: SealedPosition, expected: Sealed, next: Sealed) => Effect.Effect<boolean>
    /** How many values each master key id seals, the key check included. */
    readonly countByKeyId: Effect.Effect<ReadonlyArray<KeyIdCount>>
    readonly keyCheck: Effect.Effect<Option.Option<Sealed>>
    /** Stores the key check unless one exists; answers the one stored (the first writer's). */
    readonly createKeyCheck: (sealed: Sealed) => Effect.Effect<Sealed>
    readonly progress: Effect.Effect<Option.Option<ResealProgress>>
    readonly saveProgress: (progress: ResealProgress) => Effect.Effect<void>
    readonly clearProgress: Effect.Effect<void>
  }
>() {}
