import { type EventId, type Network, Notifications, OperatorAuditLog, SettingsService, type TenantId, type TenantScope } from "@collector/core"
import { Clock, Effect } from "effect"
import type { Operator } from "./OperatorAccess.js"

/**
 * What the console can do, each through the same domain service the API uses (so every rule the
 * API enforces holds here too), each recorded in the audit trail with the operator's token.
 * Each is idempotent: asked again, it changes nothing and says so.
 */
export type ConsoleAction =
  | { readonly action: "redeliver_event"; readonly scope: TenantScope; readonly eventId: EventId }
  | { readonly action: "pause_automation" | "resume_automation"; readonly scope: TenantScope }

const digits = /^[1-9][0-9]{0,18}$/

/** The action a form or link names, or why it names none. */
export const parseAction = (fields: Readonly<Record<string, string | undefined>>): ConsoleAction | string => {
  const { action, event, network, tenant } = fields
  if (tenant === undefined || !digits.test(tenant)) return "the tenant must be a tenant ID"
  if (network !== "nile" && network !== "main") return "the network must be nile or main"
  const scope: TenantScope = { tenantId: tenant as TenantId, network: network as Network }
  switch (action) {
    case "redeliver_event":
      return event !== undefined && digits.test(event) ? { action, scope, eventId: event as EventId } : "the event must be an event ID"
    case "pause_automation":
    case "resume_automation":
      return { action, scope }
    default:
      return "unknown action"
  }
}

export const describeAction = (a: ConsoleAction): string =>
  a.action === "redeliver_event"
    ? `Re-deliver event ${a.eventId} of tenant ${a.scope.tenantId} on ${a.scope.network}: a new delivery round starts now.`
    : a.action === "pause_automation"
    ? `Pause automatic sweeps of tenant ${a.scope.tenantId} on ${a.scope.network}. Sweeps already created go on.`
    : `Resume automatic sweeps of tenant ${a.scope.tenantId} on ${a.scope.network}, with the policy as it is set.`

export const targetOf = (a: ConsoleAction): string =>
  a.action === "redeliver_event" ? `event ${a.eventId} (tenant ${a.scope.tenantId} ${a.scope.network})` : `tenant ${a.scope.tenantId} ${a.scope.network}`

const perform = (a: ConsoleAction) =>
  Effect.gen(function*() {
    if (a.action === "redeliver_event") {
      return yield* (yield* Notifications).redeliver(a.scope, a.eventId).pipe(
        Effect.as("done: a new delivery round started"),
        Effect.catchTags({
          EventNotFound: () => Effect.succeed("refused: no such event of this tenant"),
          EventNotRedeliverable: (e) => Effect.succeed(`unchanged: the event is ${e.status}, not failed`)
        })
      )
    }
    const settings = yield* SettingsService
    const { automation } = yield* settings.get(a.scope)
    const enabled = a.action === "resume_automation"
    if (automation.enabled === enabled) return `unchanged: automation is ${enabled ? "on" : "off"} already`
    const { updatedAt: _, ...policy } = automation
    yield* settings.setAutomation(a.scope, { ...policy, enabled })
    return `done: automation ${enabled ? "resumed" : "paused"}`
  })

/** Runs the action for `operator` and records it with its outcome; returns the outcome. */
export const runAction = (operator: Operator, a: ConsoleAction) =>
  Effect.gen(function*() {
    const outcome = yield* perform(a)
    const at = new Date(yield* Clock.currentTimeMillis)
    yield* (yield* OperatorAuditLog).record({ tokenId: operator.tokenId, action: a.action, target: targetOf(a), outcome, at })
    return outcome
  })
