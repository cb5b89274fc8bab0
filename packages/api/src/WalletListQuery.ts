import { Kernel, type Wallets } from "@collector/core"
import { Either } from "effect"
import { compareInstants, parseRfc3339, postgresTimestamp, type Rfc3339Instant } from "./Rfc3339.js"

const maxAmount = 2n ** 256n - 1n
const sorts: ReadonlyArray<Wallets.WalletSort> = ["created_at", "balance_usdt", "balance_trx", "last_collected_at", "collected_usdt"]

type Raw = Readonly<Record<string, string | undefined>>

/** Absent and empty mean "not given" everywhere in these parameters. */
const given = (raw: Raw, key: string) => (raw[key] === undefined || raw[key] === "" ? undefined : raw[key])

const fail = (message: string) => Either.left(`invalid request: ${message}`)

const amount = (raw: Raw, key: string): Either.Either<bigint | undefined, string> => {
  const text = given(raw, key)
  if (text === undefined) return Either.right(undefined)
  if (!/^(0|[1-9][0-9]{0,77})$/.test(text) || BigInt(text) > maxAmount) return fail(`${key} must be an integer from 0 to 2^256-1`)
  return Either.right(BigInt(text))
}

const flag = (raw: Raw, key: string): Either.Either<boolean | undefined, string> => {
  const text = given(raw, key)
  if (text === undefined) return Either.right(undefined)
  return text === "true" ? Either.right(true) : text === "false" ? Either.right(false) : fail(`${key} must be true or false`)
}

const time = (raw: Raw, key: string): Either.Either<Rfc3339Instant | undefined, string> => {
  const text = given(raw, key)
  if (text === undefined) return Either.right(undefined)
  const instant = parseRfc3339(text)
  return instant === undefined ? fail(`${key} must be an RFC 3339 time with a zone`) : Either.right(instant)
}

/** The address contains-filter of the wallet and deposit lists: at most 100 UTF-8 bytes, empty meaning none. */
export const parseAddressFilter = (raw: Raw): Either.Either<string | undefined, string> => {
  const address = given(raw, "address")
  if (address !== undefined && new TextEncoder().encode(address).length > 100) return fail("address must be at most 100 UTF-8 bytes")
  // PostgreSQL text cannot hold U+0000; no address contains it anyway.
  if (address?.includes("\u0000")) return fail("address must not contain U+0000")
  return Either.right(address)
}

/** The filters shared by the wallet list (query text) and the selection (JSON strings). */
export const parseWalletFilters = (raw: Raw): Either.Either<Wallets.WalletFilters, string> =>
  Either.gen(function*() {
    const address = yield* parseAddressFilter(raw)
    const from = yield* time(raw, "last_collected_from")
    const to = yield* time(raw, "last_collected_to")
    if (from !== undefined && to !== undefined && compareInstants(from, to) > 0) return yield* fail("last_collected_from exceeds last_collected_to")
    return {
      address,
      usdtMin: yield* amount(raw, "usdt_min"),
      usdtMax: yield* amount(raw, "usdt_max"),
      trxMin: yield* amount(raw, "trx_min"),
      trxMax: yield* amount(raw, "trx_max"),
      hideZero: yield* flag(raw, "hide_zero"),
      hideZeroTrx: yield* flag(raw, "hide_zero_trx"),
      // Stored times are whole microseconds: a finer lower bound rounds up, an upper bound down;
      // both go to the database in UTC, which it reads for every valid RFC 3339 time.
      lastCollectedFrom: from === undefined ? undefined : postgresTimestamp(from.micros + (from.finer === "" ? 0n : 1n)),
      lastCollectedTo: to === undefined ? undefined : postgresTimestamp(to.micros)
    } satisfies Wallets.WalletFilters
  })

/** `page` >= 1 and `page_size` 1 to 100, absent or empty meaning the defaults. */
export const parsePaging = (raw: Raw): Either.Either<{ page: number; pageSize: number }, string> => {
  const page = given(raw, "page") ?? "1"
  const size = given(raw, "page_size") ?? "20"
  if (!/^[1-9][0-9]{0,8}$/.test(page) || !/^[1-9][0-9]{0,2}$/.test(size) || Number(size) > 100) return fail("invalid pagination")
  if ((Number(page) - 1) * Number(size) > Kernel.maxPageOffset) {
    return fail(`invalid pagination: a page may start at most ${Kernel.maxPageOffset} rows deep ((page - 1) * page_size); narrow the filters`)
  }
  return Either.right({ page: Number(page), pageSize: Number(size) })
}

export const parseWalletIds = (text: string | undefined, key: string, max: number): Either.Either<ReadonlyArray<Kernel.WalletId>, string> => {
  if (text === undefined || text === "") return Either.right([])
  const ids = text.split(",")
  if (ids.length > max) return fail(`${key} accepts at most ${max} IDs`)
  if (!ids.every(Kernel.isCanonicalPositiveInt64)) return fail(`${key} must be positive integer IDs separated by commas`)
  return Either.right([...new Set(ids)] as Array<Kernel.WalletId>)
}

export const parseWalletListQuery = (raw: Raw): Either.Either<{ query: Wallets.WalletQuery; selected: ReadonlyArray<Kernel.WalletId> }, string> =>
  Either.gen(function*() {
    const filters = yield* parseWalletFilters(raw)
    const { page, pageSize } = yield* parsePaging(raw)
    const sort = given(raw, "sort") ?? "created_at"
    if (!(sorts as ReadonlyArray<string>).includes(sort)) return yield* fail("invalid sort field")
    const order = given(raw, "order") ?? "desc"
    if (order !== "asc" && order !== "desc") return yield* fail("order must be asc or desc")
    const selected = yield* parseWalletIds(raw.selected_wallet_ids, "selected_wallet_ids", 1000)
    return { query: { filters, sort: sort as Wallets.WalletSort, order, page, pageSize }, selected }
  })
