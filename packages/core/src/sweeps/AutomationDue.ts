import * as RowRule from "../kernel/RowRule.js"
import { tenantAvailability, type TenantAvailabilityFields } from "../tenants/Tenant.js"
import { type SweepStatus, terminalStatuses } from "./SweepTask.js"

/**
 * When a scope's automatic sweep round is due, written once: the memory driver evaluates these
 * rules, the PostgreSQL driver renders them into its claim statement.
 */

/** The automation fields of a scope's settings row the rule reads. */
export interface AutomationDueFields {
  readonly automationEnabled: boolean
  readonly collectionAddress: string
  readonly automationLastRunAt: Date | null
  readonly automationIntervalMinutes: number
  /** The lease of the round a worker runs now, if any. */
  readonly automationRoundClaimedUntil: Date | null
}

export interface DueTime {
  readonly now: Date
}

const settingsField = RowRule.field<AutomationDueFields>
const now = RowRule.param<DueTime>("now")

/**
 * Enabled with somewhere to sweep to, never run or its interval passed since the last round, and
 * no round of it running: a worker may claim the scope's next round.
 */
export const automationDue: RowRule.Rule<AutomationDueFields, DueTime> = RowRule.all<AutomationDueFields, DueTime>(
  RowRule.compare(settingsField("automationEnabled"), "=", RowRule.literal(true)),
  RowRule.compare(settingsField("collectionAddress"), "<>", RowRule.literal("")),
  RowRule.any(
    RowRule.isNull(settingsField("automationLastRunAt")),
    RowRule.compare(RowRule.plusMinutes(settingsField("automationLastRunAt"), settingsField("automationIntervalMinutes")), "<=", now)
  ),
  RowRule.unclaimedAt(settingsField("automationRoundClaimedUntil"), now)
)

/** The scope's round is claimable: due by its settings, and its tenant is served (tenantAvailability). */
export const isAutomationDue = (settings: AutomationDueFields, tenant: TenantAvailabilityFields, at: Date): boolean =>
  RowRule.holds(automationDue, settings, { now: at }) && RowRule.holds(tenantAvailability, tenant, { now: at })

/** The balance of a wallet of the scope, as last synced (null before its first reading). */
export interface CandidateWalletFields {
  readonly balanceUsdt: bigint | null
}

export interface CandidateThreshold {
  readonly threshold: bigint
}

/** Holds at least the scope's threshold: the wallet may be swept by the round. */
export const automationCandidate: RowRule.Rule<CandidateWalletFields, CandidateThreshold> = RowRule.compare(
  RowRule.field<CandidateWalletFields>("balanceUsdt"),
  ">=",
  RowRule.param<CandidateThreshold>("threshold")
)

/** The status of a sweep task of the wallet. */
export interface WalletTaskFields {
  readonly status: SweepStatus
}

/** A task of the wallet not yet ended keeps the wallet out of the round: it is being collected. */
export const taskStillCollecting: RowRule.Rule<WalletTaskFields, unknown> = RowRule.noneOf(
  RowRule.field<WalletTaskFields>("status"),
  terminalStatuses
)
