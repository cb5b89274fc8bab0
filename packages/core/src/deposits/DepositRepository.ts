import { Context, type Effect, type Option } from "effect"
import type { Page } from "../kernel/Page.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { Deposit, DepositId } from "./Deposit.js"

export interface DepositQuery {
  readonly page: number
  readonly pageSize: number
  /** Case-insensitive contains match on the receiving address; `%` and `_` are wildcards. */
  readonly address: string
}

/** Port: the deposits of one tenant scope as the operations read them. Storage failures are defects. */
export class DepositRepository extends Context.Tag("@collector/core/DepositRepository")<
  DepositRepository,
  {
    /** Deposit ID descending. */
    readonly list: (scope: TenantScope, query: DepositQuery) => Effect.Effect<Page<Deposit>>
    readonly find: (scope: TenantScope, id: DepositId) => Effect.Effect<Option.Option<Deposit>>
    /** Cumulative USDT of the scope's confirmed deposits. */
    readonly confirmedTotal: (scope: TenantScope) => Effect.Effect<bigint>
  }
>() {}
