import { Context, type Effect, type Option } from "effect"
import type { AppId } from "../kernel/Ids.js"
import * as RowRule from "../kernel/RowRule.js"

export interface StoredAccessToken {
  readonly appId: AppId
  readonly expiresAt: Date
}

/** A token expiring at or before `now` is expired: deleteExpired may remove it (the rule both drivers use). */
export const accessTokenExpired: RowRule.Rule<Pick<StoredAccessToken, "expiresAt">, { readonly now: Date }> = RowRule.compare(
  RowRule.field<Pick<StoredAccessToken, "expiresAt">>("expiresAt"),
  "<=",
  RowRule.param<{ readonly now: Date }>("now")
)

/** Port: access tokens, kept only as a hash of the token text. */
export class AccessTokenRepository extends Context.Tag("@collector/core/AccessTokenRepository")<
  AccessTokenRepository,
  {
    readonly insert: (tokenHash: Uint8Array, appId: AppId, expiresAt: Date) => Effect.Effect<void>
    readonly find: (tokenHash: Uint8Array) => Effect.Effect<Option.Option<StoredAccessToken>>
    /** Deletes at most `limit` tokens expiring at or before `now` (a bounded batch); returns how many. */
    readonly deleteExpired: (now: Date, limit: number) => Effect.Effect<number>
  }
>() {}
