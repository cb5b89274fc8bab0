import { HttpApiBuilder } from "@effect/platform"
import { ContractApi, CurrentApp, NotificationEventDetail, parseDeliveryQuery, parseWebhookListQuery } from "@collector/api"
import { type Deposits, Notifications } from "@collector/core"
import { Effect, Either, FiberRef, Schema } from "effect"
import { invalidArgument, toEnvelope } from "../ErrorMapping.js"
import { currentBody } from "../gate/RequestContext.js"
import { idempotentWrite } from "./Idempotent.js"
import { presentAttempt, presentEvent, presentRound } from "./WebhookPresenter.js"

// A refused re-push (the round has not failed yet) is not saved: the state that refused it
// passes, and the caller may retry with the same request_id once the round has failed.
const nothingSaved = Schema.Never

/**
 * The body carries only request_id; the event comes from the path. The digest must cover it,
 * so the same request_id for another event is an idempotency conflict rather than a replay.
 */
const withPathInDigest = (id: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(FiberRef.get(currentBody), (body) => Effect.locally(effect, currentBody, { ...body, id }))

export const WebhookHandlers = HttpApiBuilder.group(ContractApi, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const notifications = yield* Notifications.Notifications
    return handlers
      .handle("listEvents", ({ urlParams }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const parsed = parseWebhookListQuery(urlParams)
          if (Either.isLeft(parsed)) return yield* invalidArgument(parsed.left)
          const page = yield* notifications.list(app, parsed.right)
          return { network: app.network, items: page.items.map(presentEvent), total: page.total, page: parsed.right.page, page_size: parsed.right.pageSize }
        }).pipe(toEnvelope))
      .handle("getEvent", ({ path }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return presentEvent(yield* notifications.find(app, path.id as Deposits.EventId))
        }).pipe(toEnvelope))
      .handle("listRounds", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const parsed = parseDeliveryQuery(urlParams)
          if (Either.isLeft(parsed)) return yield* invalidArgument(parsed.left)
          const page = yield* notifications.rounds(app, path.id as Deposits.EventId, parsed.right)
          return {
            network: app.network, event_id: path.id, items: page.items.map(presentRound), total: page.total,
            page: parsed.right.page, page_size: parsed.right.pageSize
          }
        }).pipe(toEnvelope))
      .handle("listAttempts", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const parsed = parseDeliveryQuery(urlParams)
          if (Either.isLeft(parsed)) return yield* invalidArgument(parsed.left)
          const page = yield* notifications.attempts(app, path.id as Deposits.EventId, parsed.right)
          return {
            network: app.network, event_id: path.id, items: page.items.map(presentAttempt), total: page.total,
            page: parsed.right.page, page_size: parsed.right.pageSize
          }
        }).pipe(toEnvelope))
      .handle("redeliver", ({ path, payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return yield* idempotentWrite(
            { tenantId: app.tenantId, network: app.network, operation: "webhooks.redeliver", requestId: payload.request_id },
            { success: NotificationEventDetail, rejection: nothingSaved },
            Effect.map(notifications.redeliver(app, path.id as Deposits.EventId), presentEvent)
          ).pipe(withPathInDigest(path.id))
        }).pipe(toEnvelope))
  }))
