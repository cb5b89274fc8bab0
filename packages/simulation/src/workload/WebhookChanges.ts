import { Effect } from "effect"
import { answerOf } from "../api/ApiAnswer.js"
import type { SimScope } from "./Population.js"
import { webhookUrl } from "./Tenants.js"
import type { Workload } from "./Workload.js"

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
    // A refused URL is a 400, not saved under the request_id (it can be retried once fixed).
    const answer = yield* workload.replays.send({
      scope,
      operation: "settings.webhook",
      path: "/open/v1/settings/webhook",
      body: { url, enabled },
      expected: ["INVALID_ARGUMENT"],
      conflicting: { body: { url, enabled: !enabled } }
    })
    if (answer.status === 200) scope.webhookEnabled = answer.data.enabled === true
  })

/**
 * A re-push of one of the scope's events, as a tenant asks for it through the API: listed
 * (mostly those whose round failed, sometimes any), then one re-pushed (a re-push of an event
 * still delivering is refused and not saved). The same request_id for another event is a conflict.
 */
export const redeliver = (workload: Workload, scope: SimScope) =>
  Effect.gen(function*() {
    const { dice } = workload
    const failedOnly = dice.chance(0.8)
    const app = { appId: scope.appId, secret: scope.appSecret }
    const query: Array<readonly [string, string]> = [["page", "1"], ["page_size", "20"], ...(failedOnly ? [["status", "failed"] as const] : [])]
    const listed = answerOf(yield* workload.world.api.call(app, "GET", "/open/v1/webhooks", { query }))
    workload.outcomes.judgeAnswer("webhooks.list", listed, [])
    const items = listed.status === 200 ? (listed.data.items as ReadonlyArray<{ readonly id: string }>) : []
    if (items.length === 0) return
    const id = dice.pick(items).id
    const others = items.filter((item) => item.id !== id)
    yield* workload.replays.send({
      scope,
      operation: "webhooks.redeliver",
      path: `/open/v1/webhooks/${id}/redeliver`,
      body: {},
      expected: ["BUSINESS_CONFLICT"],
      ...(others.length === 0 ? {} : { conflicting: { body: {}, path: `/open/v1/webhooks/${others[0]!.id}/redeliver` } })
    })
  })
