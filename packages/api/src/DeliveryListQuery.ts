import type { Notifications } from "@collector/core"
import { Either } from "effect"
import { parsePaging } from "./WalletListQuery.js"

type Raw = Readonly<Record<string, string | undefined>>

/**
 * The query of an event's rounds and attempts: the other lists' paging, and for attempts an
 * optional `round` (a canonical positive integer; empty means every round).
 */
export const parseDeliveryQuery = (raw: Raw): Either.Either<Notifications.DeliveryQuery, string> =>
  Either.gen(function*() {
    const { page, pageSize } = yield* parsePaging(raw)
    const round = raw.round
    if (round === undefined || round === "") return { page, pageSize }
    // Rounds are an int4 column; anything longer than nine digits cannot name one.
    if (!/^[1-9][0-9]{0,8}$/.test(round)) return yield* Either.left("invalid request: round must be a positive integer")
    return { page, pageSize, round: Number(round) }
  })
