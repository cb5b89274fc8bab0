import type { WalletFilters, WalletQuery, WalletSort } from "./WalletQuery.js"
import type { WalletRow } from "../memory/MemoryTables.js"

/*
 * The wallet list's filters and sorts over memory rows, read exactly as PostgreSQL reads
 * `WalletFilterSql` (packages/postgres): a bound never matches a null, bounds are inclusive,
 * nulls sort last in both orders and ties go by ID descending.
 */

/**
 * `lower(address) LIKE '%<text>%'` with the tenant's `%` (any run) and `_` (one character) as
 * wildcards and every other character, the backslash included, literal.
 */
const containsMatcher = (text: string): RegExp => {
  const body = [...text.toLowerCase()]
    .map((c) => (c === "%" ? "[\\s\\S]*" : c === "_" ? "[\\s\\S]" : c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")))
    .join("")
  return new RegExp(body, "u")
}

/**
 * The microseconds since the epoch of the filter's timestamp text: UTC at microsecond precision,
 * as PostgreSQL reads it (`YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, ` BC` after it for years before 1).
 */
export const timestampMicros = (text: string): bigint => {
  const parts = /^(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z( BC)?$/.exec(text)
  if (parts === null) throw new Error(`wallet filter: unreadable timestamp "${text}"`)
  const [, year, month, day, hours, minutes, seconds, fraction = "", bc] = parts
  const date = new Date(0)
  date.setUTCFullYear(bc === undefined ? Number(year) : 1 - Number(year), Number(month) - 1, Number(day))
  date.setUTCHours(Number(hours), Number(minutes), Number(seconds), 0)
  return BigInt(date.getTime()) * 1000n + BigInt(fraction.padEnd(6, "0"))
}

const micros = (date: Date) => BigInt(date.getTime()) * 1000n

const atLeast = (value: bigint | null, bound: bigint | undefined) => bound === undefined || (value !== null && value >= bound)
const atMost = (value: bigint | null, bound: bigint | undefined) => bound === undefined || (value !== null && value <= bound)

/** The rows of a list or selection that pass every filter present. */
export const walletFilter = (f: WalletFilters): (row: WalletRow) => boolean => {
  const address = f.address === undefined ? undefined : containsMatcher(f.address)
  const collectedFrom = f.lastCollectedFrom === undefined ? undefined : timestampMicros(f.lastCollectedFrom)
  const collectedTo = f.lastCollectedTo === undefined ? undefined : timestampMicros(f.lastCollectedTo)
  const collectedAt = (row: WalletRow) => (row.lastCollectedAt === null ? null : micros(row.lastCollectedAt))
  return (row) =>
    (address === undefined || address.test(row.address.toLowerCase())) &&
    atLeast(row.balanceUsdt, f.usdtMin) && atMost(row.balanceUsdt, f.usdtMax) &&
    atLeast(row.balanceTrx, f.trxMin) && atMost(row.balanceTrx, f.trxMax) &&
    (f.hideZero !== true || atLeast(row.balanceUsdt, 1n)) &&
    (f.hideZeroTrx !== true || atLeast(row.balanceTrx, 1n)) &&
    atLeast(collectedAt(row), collectedFrom) && atMost(collectedAt(row), collectedTo)
}

const sortKeys: Record<WalletSort, (row: WalletRow) => bigint | null> = {
  created_at: (row) => micros(row.createdAt),
  balance_usdt: (row) => row.balanceUsdt,
  balance_trx: (row) => row.balanceTrx,
  last_collected_at: (row) => (row.lastCollectedAt === null ? null : micros(row.lastCollectedAt)),
  collected_usdt: (row) => row.collectedUsdt
}

const compare = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)

/** The list's order: the sort key in the asked direction with nulls last, then ID descending. */
export const walletOrder = (query: Pick<WalletQuery, "sort" | "order">) => {
  const key = sortKeys[query.sort]
  const direction = query.order === "asc" ? 1 : -1
  return (a: WalletRow, b: WalletRow): number => {
    const x = key(a)
    const y = key(b)
    const byKey = x === null ? (y === null ? 0 : 1) : y === null ? -1 : direction * compare(x, y)
    return byKey !== 0 ? byKey : compare(BigInt(b.id), BigInt(a.id))
  }
}
