import { Context, type Effect } from "effect"
import type { WalletId } from "../Ids"
import type { Network } from "../Network"
import type { TenantScope } from "../Scope"
import type { AutomationPolicy } from "../Settings"

export interface DueScope {
  readonly scope: TenantScope
  readonly policy: AutomationPolicy
}

/** Port: what the automation scheduler reads and the one mark it writes. Storage failures are defects. */
export class AutomationLedger extends Context.Tag("@collector/core/AutomationLedger")<
  AutomationLedger,
  {
    /**
     * Claims the scopes of the network whose automation is enabled and due (never run, or last
     * run at least their interval before `now`), marking them run at `now` in the same
     * statement, so two workers never run one scope's round twice.
     */
    readonly claimDue: (network: Network, now: Date, limit: number) => Effect.Effect<ReadonlyArray<DueScope>>
    /**
     * Wallets of the scope whose synchronised USDT balance is at or above `threshold` and that can
     * start a sweep (no unfinished task, not the collection address); largest balance first.
     */
    readonly candidates: (scope: TenantScope, threshold: bigint, limit: number) => Effect.Effect<ReadonlyArray<WalletId>>
  }
>() {}
