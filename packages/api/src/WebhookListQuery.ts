import { Notifications } from "@collector/core"
import { Either } from "effect"
import { parsePaging } from "./WalletListQuery.js"

type Raw = Readonly<Record<string, string | undefined>>

export const deliveryStatuses: ReadonlyArray<Notifications.DeliveryStatus> = ["pending", "delivering", "delivered", "failed"]

/** A filter that must be one of a fixed set of values; absent or empty means no filter. */
const oneOf = <A extends string>(raw: Raw, key: string, allowed: ReadonlyArray<A>): Either.Either<A | undefined, string> => {
  const text = raw[key]
  if (text === undefined || text === "") return Either.right(undefined)
  return (allowed as ReadonlyArray<string>).includes(text)
    ? Either.right(text as A)
    : Either.left(`invalid request: ${key} must be one of ${allowed.join(", ")}`)
}

/**
 * The notification list's query: the other lists' paging plus exact `event_type` and `status`
 * filters (unknown keys are refused by the strict query schema before this runs).
 */
export const parseWebhookListQuery = (raw: Raw): Either.Either<Notifications.NotificationQuery, string> =>
  Either.gen(function*() {
    const eventType = yield* oneOf<Notifications.EventType>(raw, "event_type", Notifications.eventTypes)
    const status = yield* oneOf(raw, "status", deliveryStatuses)
    const { page, pageSize } = yield* parsePaging(raw)
    return { page, pageSize, ...(eventType === undefined ? {} : { eventType }), ...(status === undefined ? {} : { status }) }
  })
