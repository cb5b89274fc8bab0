import { type EventId, Notifications, SettingsService } from "@collector/core"
import { Effect, Schema } from "effect"
import { presentRedelivery, presentWebhook, RedeliveryAnswer, WebhookAnswer } from "./Answers.js"
import type { SimScope } from "./Population.js"
import { webhookUrl } from "./Tenants.js"
import type { Workload } from "./Workload.js"

// Neither write saves a rejection: a refused URL or re-push can be retried once fixed.
const nothingSaved = Schema.Never

/** A URL no resolver answers: the service must refuse it and keep the configuration. */
const unresolvable = "https://nowhere.simulated.invalid/hooks"

/**
 * The tenant changes its webhook: a new URL on the receiver, a URL that does not resolve (refused),
 * or delivery turned off (its events then fail at once) or back on.
 */
export const changeWebhook = (workload: Workload, scope: SimScope) =>
  Effect.gen(function*() {
    const { dice, population } = workload
    const roll = dice.int(1, 10)
    const name = population.nameOf(scope.scope.tenantId)
    let url = webhookUrl(name, scope)
    let enabled = scope.webhookEnabled
    if (roll <= 4) {
      scope.webhookVersion++
      url = webhookUrl(name, scope)
    } else if (roll <= 5) {
      url = unresolvable
    } else {
      enabled = !enabled
    }
    const set = (u: string, e: boolean) =>
      Effect.flatMap(SettingsService, (settings) =>
        settings.checkWebhook(u, e).pipe(Effect.zipRight(settings.setWebhook(scope.scope, u, e)), Effect.map(presentWebhook)))
    const exit = yield* workload.replays.send("settings.webhook", {
      scope: scope.scope,
      operation: "settings.webhook",
      body: { url, enabled },
      schemas: { success: WebhookAnswer, rejection: nothingSaved },
      work: set(url, enabled),
      expected: ["SettingRejected"],
      conflicting: { body: { url, enabled: !enabled }, work: set(url, !enabled) }
    })
    if (exit._tag === "Success") scope.webhookEnabled = exit.value.enabled
  })

/**
 * A re-push of one of the scope's events, as a tenant asks for it: mostly one whose round
 * failed, sometimes any (a re-push of an event still delivering is refused).
 */
export const redeliver = (workload: Workload, scope: SimScope) =>
  Effect.gen(function*() {
    const { dice } = workload
    const notifications = yield* Notifications
    const failedOnly = dice.chance(0.8)
    const listed = yield* workload.outcomes.attempt(
      "webhooks.list",
      notifications.list(scope.scope, { page: 1, pageSize: 20, ...(failedOnly ? { status: "failed" as const } : {}) }),
      []
    )
    if (listed._tag === "None" || listed.value.items.length === 0) return
    const id: EventId = dice.pick(listed.value.items).id
    yield* workload.replays.send("webhooks.redeliver", {
      scope: scope.scope,
      operation: "webhooks.redeliver",
      // The handler puts the event of the path into the digest.
      body: { id },
      schemas: { success: RedeliveryAnswer, rejection: nothingSaved },
      work: Effect.map(notifications.redeliver(scope.scope, id), presentRedelivery),
      expected: ["EventNotRedeliverable"]
    })
  })
