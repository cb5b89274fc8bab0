import { type Deposits, type Kernel, Notifications, Operators, Settings, Sweeps, type Tenants } from "@collector/core"
import { Clock, Effect } from "effect"
import type { Operator } from "./OperatorAccess.js"

/**
 * What the console can do, each through the same domain service the API uses (so every rule the
 * API enforces holds here too), each recorded in the audit trail with the operator's token.
 * Each is idempotent: asked again, it changes nothing and says so.
 */
export type ConsoleAction =
  | { readonly action: "redeliver_event"; readonly scope: Tenants.TenantScope; readonly eventId: Deposits.EventId }
  | { readonly action: "pause_automation" | "resume_automation"; readonly scope: Tenants.TenantScope }
  | { readonly action: "retry_sweep" | "cancel_sweep"; readonly scope: Tenants.TenantScope; readonly sweepId: Sweeps.SweepTaskId }

const digits = /^[1-9][0-9]{0,18}$/

/** The action a form or link names, or why it names none. */
export const parseAction = (fields: Readonly<Record<string, string | undefined>>): ConsoleAction | string => {
  const { action, event, network, sweep, tenant } = fields
  if (tenant === undefined || !digits.test(tenant)) return "the tenant must be a tenant ID"
  if (network !== "nile" && network !== "main") return "the network must be nile or main"
  const scope: Tenants.TenantScope = { tenantId: tenant as Kernel.TenantId, network: network as Kernel.Network }
  switch (action) {
    case "redeliver_event":
      return event !== undefined && digits.test(event) ? { action, scope, eventId: event as Deposits.EventId } : "the event must be an event ID"
    case "pause_automation":
    case "resume_automation":
      return { action, scope }
    case "retry_sweep":
    case "cancel_sweep":
      return sweep !== undefined && digits.test(sweep) ? { action, scope, sweepId: sweep as Sweeps.SweepTaskId } : "the sweep must be a sweep ID"
    default:
      return "unknown action"
  }
}

export const describeAction = (a: ConsoleAction): string => {
  const where = `tenant ${a.scope.tenantId} on ${a.scope.network}`
  switch (a.action) {
    case "redeliver_event":
      return `Re-deliver event ${a.eventId} of ${where}: a new delivery round starts now.`
    case "pause_automation":
      return `Pause automatic sweeps of ${where}. Sweeps already created go on.`
    case "resume_automation":
      return `Resume automatic sweeps of ${where}, with the policy as it is set.`
    case "retry_sweep":
      return `Have the sweeper look at sweep ${a.sweepId} of ${where} at its next pass instead of waiting. Only a sweep not yet signed.`
    case "cancel_sweep":
      return `Cancel sweep ${a.sweepId} of ${where}. The tenant gets a sweep.cancelled event; energy lent to it is taken back. Only a sweep not yet signed.`
  }
}

export const targetOf = (a: ConsoleAction): string => {
  const where = `tenant ${a.scope.tenantId} ${a.scope.network}`
  switch (a.action) {
    case "redeliver_event":
      return `event ${a.eventId} (${where})`
    case "retry_sweep":
    case "cancel_sweep":
      return `sweep ${a.sweepId} (${where})`
    default:
      return where
  }
}

const perform = (operator: Operator, a: ConsoleAction) =>
  Effect.gen(function*() {
    if (a.action === "redeliver_event") {
      return yield* (yield* Notifications.Notifications).redeliver(a.scope, a.eventId).pipe(
        Effect.as("done: a new delivery round started"),
        Effect.catchTags({
          EventNotFound: () => Effect.succeed("refused: no such event of this tenant"),
          EventNotRedeliverable: (e) => Effect.succeed(`unchanged: the event is ${e.status}, not failed`)
        })
      )
    }
    if (a.action === "retry_sweep" || a.action === "cancel_sweep") {
      const result = yield* Sweeps.intervene(a.scope, a.sweepId, a.action === "cancel_sweep" ? "cancel" : "retry", `console token ${operator.tokenId}`)
      return `${result._tag === "Done" ? "done" : result._tag === "Unchanged" ? "unchanged" : "refused"}: ${result.message}`
    }
    const settings = yield* Settings.SettingsService
    const { automation } = yield* settings.get(a.scope)
    const enabled = a.action === "resume_automation"
    if (automation.enabled === enabled) return `unchanged: automation is ${enabled ? "on" : "off"} already`
    const { updatedAt: _, ...policy } = automation
    yield* settings.setAutomation(a.scope, { ...policy, enabled })
    return `done: automation ${enabled ? "resumed" : "paused"}`
  })

/**
 * Runs the action for `operator`, recorded first (`started`) and settled with its outcome, so an
 * action never takes effect without its entry: a process stopping in between leaves it `started`.
 */
export const runAction = (operator: Operator, a: ConsoleAction) =>
  Effect.gen(function*() {
    const audit = yield* Operators.OperatorAuditLog
    const at = new Date(yield* Clock.currentTimeMillis)
    const entry = yield* audit.record({ tokenId: operator.tokenId, action: a.action, target: targetOf(a), outcome: Operators.actionStarted, at })
    const outcome = yield* perform(operator, a)
    yield* audit.settle(entry.id, outcome)
    return outcome
  })
