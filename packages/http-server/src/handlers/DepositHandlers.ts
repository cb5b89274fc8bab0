import { HttpApiBuilder } from "@effect/platform"
import { ContractApi, CurrentApp, parseDepositListQuery } from "@collector/api"
import { Deposits } from "@collector/core"
import { Effect, Either, Option } from "effect"
import { invalidArgument, toEnvelope } from "../ErrorMapping.js"

/**
 * Both operations present a deposit only through core's `depositRecord`, the function that also
 * builds the notification payload, so a list item, the detail and the payload of one id and
 * revision are the same object.
 */
export const DepositHandlers = HttpApiBuilder.group(ContractApi, "deposits", (handlers) =>
  Effect.gen(function*() {
    const deposits = yield* Deposits.DepositRepository
    return handlers
      .handle("listDeposits", ({ urlParams }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const parsed = parseDepositListQuery(urlParams)
          if (Either.isLeft(parsed)) return yield* invalidArgument(parsed.left)
          const page = yield* deposits.list(app, parsed.right)
          return {
            network: app.network,
            items: page.items.map((deposit) => Deposits.depositRecord(deposit)),
            total: page.total,
            page: parsed.right.page,
            page_size: parsed.right.pageSize
          }
        }).pipe(toEnvelope))
      .handle("getDeposit", ({ path }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const found = yield* deposits.find(app, path.id as Deposits.DepositId)
          if (Option.isNone(found)) return yield* new Deposits.DepositNotFound({ depositId: path.id })
          return Deposits.depositRecord(found.value)
        }).pipe(toEnvelope))
  }))
