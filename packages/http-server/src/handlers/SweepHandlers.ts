import { HttpApiBuilder, HttpApp, HttpServerResponse } from "@effect/platform"
import { ContractApi, CurrentApp, parseSweepListQuery, parseSweepRequest, SweepCreateResult } from "@collector/api"
import { Sweeps } from "@collector/core"
import { Clock, Effect, Either, Schema } from "effect"
import { invalidArgument, toEnvelope } from "../ErrorMapping.js"
import { idempotentWrite } from "./Idempotent.js"
import { presentBatch, presentEstimate, presentView } from "./SweepPresenter.js"

// Per-item failures are part of the saved success; nothing is ever a saved rejection.
const nothingRejected = Schema.Never

export const SweepHandlers = HttpApiBuilder.group(ContractApi, "sweeps", (handlers) =>
  Effect.gen(function*() {
    const sweeps = yield* Sweeps.Sweeps
    return handlers
      .handle("createSweeps", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const request = parseSweepRequest(payload)
          if (Either.isLeft(request)) return yield* invalidArgument(request.left)
          return yield* idempotentWrite(
            { tenantId: app.tenantId, network: app.network, operation: "sweeps.create", requestId: payload.request_id },
            { success: SweepCreateResult, rejection: nothingRejected },
            Effect.gen(function*() {
              const at = new Date(yield* Clock.currentTimeMillis)
              return presentBatch(app.network, yield* sweeps.create(app, request.right, "manual", at))
            })
          )
        }).pipe(toEnvelope))
      .handle("listSweeps", ({ urlParams }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const parsed = parseSweepListQuery(urlParams)
          if (Either.isLeft(parsed)) return yield* invalidArgument(parsed.left)
          const page = yield* sweeps.list(app, parsed.right)
          return {
            network: app.network,
            items: page.items.map(presentView),
            total: page.total,
            page: parsed.right.page,
            page_size: parsed.right.pageSize
          }
        }).pipe(toEnvelope))
      .handle("getSweep", ({ path }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return presentView(yield* sweeps.get(app, path.id as Sweeps.SweepTaskId))
        }).pipe(toEnvelope))
      .handle("estimateSweeps", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const request = parseSweepRequest(payload)
          if (Either.isLeft(request)) return yield* invalidArgument(request.left)
          const estimate = yield* sweeps.estimate(app, request.right).pipe(
            // The contract's 429 carries Retry-After; the error envelope alone cannot set a header.
            Effect.tapErrorTag("EstimateBudgetExhausted", (e) =>
              HttpApp.appendPreResponseHandler((_, response) =>
                Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(e.retryAfterSeconds)))))
          )
          return presentEstimate(app.network, estimate)
        }).pipe(toEnvelope))
  }))
