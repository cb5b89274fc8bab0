import type { Deposits } from "@collector/core"
import { Either } from "effect"
import { parseAddressFilter, parsePaging } from "./WalletListQuery.js"

/**
 * The deposit list's query: the wallet list's paging and address rules, nothing else (unknown
 * keys are refused by the strict query schema before this runs).
 */
export const parseDepositListQuery = (raw: Readonly<Record<string, string | undefined>>): Either.Either<Deposits.DepositQuery, string> =>
  Either.gen(function*() {
    const address = yield* parseAddressFilter(raw)
    const { page, pageSize } = yield* parsePaging(raw)
    return { page, pageSize, address: address ?? "" }
  })
