import { Context, type Effect } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { AutomationPolicy } from "../settings/Settings.js"

export interface DueScope {
  readonly scope: TenantScope
  readonly policy: AutomationPolicy
}

/** Port: what the automation scheduler reads, its round claims and the mark it writes. Storage failures are defects. */
export class AutomationLedger extends Context.Tag("@collector/core/AutomationLedger")<
  AutomationLedger,
  {
    /**
     * Claims the scopes of the network whose automation is enabled and due (never run, or last
     * run at least their interval before `now`) and whose round is not claimed (no claim, or one
     * that ran out by `now`), claiming each until `claimedUntil` in the same statement: two
     * workers never run one scope's round at once, and a round whose worker died is claimed again
     * once its claim runs out.
     */
    readonly claimDue: (network: Network, now: Date, claimedUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<DueScope>>
    /**
     * Marks the scope's round run at `at` (its next one is due an interval later) and ends its
     * claim, if the claim is still the one made until `claimedUntil`: a worker whose claim ran out
     * and was taken over neither ends the new claim nor moves the mark back.
     */
    readonly finishRound: (scope: TenantScope, at: Date, claimedUntil: Date) => Effect.Effect<void>
    /**
     * Wallets of the scope whose synchronised USDT balance is at or above `threshold` and that can
     * start a sweep (no unfinished task, not the collection address); largest balance first.
     */
    readonly candidates: (scope: TenantScope, threshold: bigint, limit: number) => Effect.Effect<ReadonlyArray<WalletId>>
  }
>() {}
