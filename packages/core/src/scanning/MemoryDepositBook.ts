import { Effect, Layer } from "effect"
import type { Deposit, DepositId, EventId } from "../deposits/Deposit.js"
import type { Network } from "../kernel/Network.js"
import type { Booking } from "./Booking.js"
import { BookingConflict, DepositBook } from "./DepositBook.js"
import type { PendingTransfer } from "./PendingTransfer.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { appendEvents } from "../memory/MemoryOutbox.js"
import { apps, type DepositRow, deposits, depositTotals, events, keyOf, observedLogs, scannedBlocks } from "../memory/MemoryTables.js"

const toDeposit = ({ updatedAt: _, ...deposit }: DepositRow): Deposit => deposit

const byBigint = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const logs = db.table(observedLogs)
  const stored = db.table(deposits)
  const totals = db.table(depositTotals)
  const outbox = db.table(events)

  const depositAt = (network: Network, txid: string, logIndex: number) =>
    stored.find((d) => d.network === network && d.txid === txid && d.logIndex === logIndex)

  const blockStored = (deposit: Deposit) => {
    const block = db.table(scannedBlocks).get(keyOf(deposit.network, deposit.blockNumber))
    return block !== undefined && block.hash === deposit.blockHash
  }

  const isOrphaned = (deposit: Deposit, from: bigint) =>
    deposit.status === "confirmed" && deposit.blockNumber >= from && !blockStored(deposit)

  const changeTotal = (tenantId: string, network: Network, change: bigint) => {
    const key = keyOf(tenantId, network)
    const next = (totals.get(key) ?? 0n) + change
    if (next < 0n) throw new Error(`deposit_totals: ${key} would fall below zero`)
    totals.put(key, next)
  }

  const writeRevision = (deposit: Deposit, at: Date) => stored.put(deposit.id, { ...deposit, updatedAt: at })

  const conflict = (network: Network, reason: string) => new BookingConflict({ network, reason })

  /** The state every booking was decided on, or the first difference. */
  const mismatch = (network: Network, bookings: ReadonlyArray<Booking>): string | null => {
    for (const booking of bookings) {
      const key = keyOf(network, booking.log.txid, booking.log.logIndex)
      const log = logs.get(key)
      if (log === undefined || log.booked || log.blockHash !== booking.log.blockHash) {
        return `log ${booking.log.txid}:${booking.log.logIndex} is no longer stored unbooked in block ${booking.log.blockHash}`
      }
      const current = depositAt(network, booking.log.txid, booking.log.logIndex)
      const expected = booking._tag === "MarkBooked" ? booking.deposit.revision : booking.replaces?.revision ?? null
      const found = current === undefined ? null : current.id === booking.deposit.id ? current.revision : -1
      if (found !== expected) return `deposit of log ${booking.log.txid}:${booking.log.logIndex} is not at the revision the booking expects`
    }
    return null
  }

  return DepositBook.of({
    pending: (network) =>
      db.atomically(() =>
        logs.filter((log) => log.network === network && !log.booked)
          .flatMap((log): Array<PendingTransfer> => {
            const app = db.table(apps).find((a) => a.tenantId === log.tenantId && a.network === log.network)
            if (app === undefined) return []
            const { booked: _, ...transfer } = log
            return [{ ...transfer, rule: app.confirmationRule }]
          })
          .sort((a, b) => byBigint(a.blockNumber, b.blockNumber) || byText(a.txid, b.txid) || a.logIndex - b.logIndex)
      ),

    depositsOf: (network, keys) =>
      db.atomically(() =>
        keys.flatMap((key) => {
          const found = depositAt(network, key.txid, key.logIndex)
          return found === undefined ? [] : [toDeposit(found)]
        })
      ),

    reserveIds: (counts) =>
      Effect.sync(() => ({
        deposits: Array.from({ length: counts.deposits }, () => db.nextId("deposit") as DepositId),
        events: Array.from({ length: counts.events }, () => db.nextId("taskEvent") as EventId)
      })),

    book: (network, bookings) =>
      db.atomically(() => {
        const reason = mismatch(network, bookings)
        if (reason !== null) return conflict(network, reason)
        for (const booking of bookings) {
          logs.update(keyOf(network, booking.log.txid, booking.log.logIndex), (log) => ({ ...log, booked: true }))
          if (booking._tag === "MarkBooked") continue
          if (booking.replaces === null && stored.has(booking.deposit.id)) throw new Error(`deposits: duplicate key ${booking.deposit.id}`)
          writeRevision(booking.deposit, booking.at)
          appendEvents(outbox, [booking.event])
          changeTotal(booking.deposit.tenantId, network, booking.totalChange)
        }
        return null
      }).pipe(Effect.flatMap((failed) => (failed === null ? Effect.void : Effect.fail(failed)))),

    orphaned: (network, from) =>
      db.atomically(() =>
        stored.filter((d) => d.network === network && isOrphaned(d, from))
          .sort((a, b) => byBigint(BigInt(a.id), BigInt(b.id)))
          .map(toDeposit)
      ),

    revert: (network, reversal) =>
      db.atomically(() => {
        const current = stored.get(reversal.deposit.id)
        if (
          current === undefined || current.network !== network || current.revision !== reversal.replaces.revision ||
          !isOrphaned(current, reversal.from)
        ) {
          return conflict(network, `deposit ${reversal.deposit.id} is no longer confirmed in a dropped block`)
        }
        writeRevision(reversal.deposit, reversal.at)
        appendEvents(outbox, [reversal.event])
        changeTotal(reversal.deposit.tenantId, network, reversal.totalChange)
        return null
      }).pipe(Effect.flatMap((failed) => (failed === null ? Effect.void : Effect.fail(failed))))
  })
})

export const layer = Layer.effect(DepositBook, make)
