import { SqlClient, type SqlError } from "@effect/sql"
import { type Deposits, type Kernel, Scanning, type Settings } from "@collector/core"
import { Effect, Layer } from "effect"
import { depositColumns, type DepositRow, type ObservedLogRow, observedLogColumns, toDeposit, toObservedTransfer } from "./DepositRows.js"
import { insertEvents } from "./EventOutbox.js"
import { integerArray, textArray } from "./PgArrays.js"

interface PendingRow extends ObservedLogRow {
  readonly rule: Settings.ConfirmationRule
}

/** Every column of a deposit revision, as the core built it. */
const depositColumnsOf = (deposit: Deposits.Deposit, at: Date) => ({
  ...revisionColumnsOf(deposit, at),
  id: deposit.id,
  tenant_id: deposit.tenantId,
  network: deposit.network,
  wallet_id: deposit.walletId,
  txid: deposit.txid,
  log_index: deposit.logIndex,
  custom_id: deposit.customId,
  address: deposit.address,
  source: deposit.source,
  contract: deposit.contract,
  amount: deposit.amount.toString(),
  created_at: deposit.createdAt
})

/** What a new revision of an existing deposit changes. */
const revisionColumnsOf = (deposit: Deposits.Deposit, at: Date) => ({
  status: deposit.status,
  revision: deposit.revision,
  event_id: deposit.eventId,
  block_number: deposit.blockNumber.toString(),
  block_hash: deposit.blockHash,
  block_time: deposit.blockTime,
  confirmation_type: deposit.confirmationType,
  confirmations: deposit.confirmations,
  updated_at: at
})

const keyOf = (txid: string, logIndex: number) => `${txid}:${logIndex}`

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.unsafe(depositColumns)

  const conflict = (network: Kernel.Network, reason: string) => Effect.fail(new Scanning.BookingConflict({ network, reason }))

  // Totals move with the revisions that change them. Not an upsert for a decrease: PostgreSQL
  // checks the proposed (negative) row before it finds the conflict, and a revert always
  // follows its confirmation, so the row exists.
  const changeTotals = (network: Kernel.Network, changes: ReadonlyArray<{ readonly tenantId: string; readonly change: bigint }>) =>
    // The element's type is written out: inferred from this three-way choice, tsc's incremental
    // build resolved it differently from a fresh one and reported an error only the second time.
    Effect.forEach(sumByTenant(changes), ([tenantId, change]): Effect.Effect<unknown, SqlError.SqlError> =>
      change > 0n
        ? sql`
            INSERT INTO deposit_totals (tenant_id, network, confirmed_usdt) VALUES (${tenantId}, ${network}, ${change.toString()})
            ON CONFLICT (tenant_id, network) DO UPDATE SET confirmed_usdt = deposit_totals.confirmed_usdt + EXCLUDED.confirmed_usdt`
        : change < 0n
        ? sql`
            UPDATE deposit_totals SET confirmed_usdt = confirmed_usdt - ${(-change).toString()}
            WHERE tenant_id = ${tenantId} AND network = ${network}`
        : Effect.void, { discard: true })

  /**
   * Locks the logs and the deposits the bookings were decided on, in one order (so two scanners
   * cannot deadlock), and checks that each is still as it was read.
   */
  const expectations = (network: Kernel.Network, bookings: ReadonlyArray<Scanning.Booking>) =>
    Effect.gen(function*() {
      const txids = textArray(bookings.map((b) => b.log.txid))
      const logIndexes = integerArray(bookings.map((b) => b.log.logIndex))
      const logs = new Map((yield* sql<{ txid: string; log_index: number; block_hash: string; booked: boolean }>`
        SELECT o.txid, o.log_index, o.block_hash, o.booked
        FROM observed_logs o JOIN unnest(${txids}::text[], ${logIndexes}::int[]) AS k(txid, log_index)
          ON o.txid = k.txid AND o.log_index = k.log_index
        WHERE o.network = ${network}
        ORDER BY o.txid, o.log_index
        FOR UPDATE OF o`).map((row) => [keyOf(row.txid, row.log_index), row]))
      const deposits = new Map((yield* sql<{ id: string; txid: string; log_index: number; revision: number }>`
        SELECT d.id::text, d.txid, d.log_index, d.revision
        FROM deposits d JOIN unnest(${txids}::text[], ${logIndexes}::int[]) AS k(txid, log_index)
          ON d.txid = k.txid AND d.log_index = k.log_index
        WHERE d.network = ${network}
        ORDER BY d.id
        FOR UPDATE OF d`).map((row) => [keyOf(row.txid, row.log_index), row]))
      for (const booking of bookings) {
        const key = keyOf(booking.log.txid, booking.log.logIndex)
        const log = logs.get(key)
        if (log === undefined || log.booked || log.block_hash !== booking.log.blockHash) {
          return yield* conflict(network, `log ${key} is no longer stored unbooked in block ${booking.log.blockHash}`)
        }
        const stored = deposits.get(key)
        const expected = booking._tag === "MarkBooked" ? booking.deposit.revision : booking.replaces?.revision ?? null
        const found = stored === undefined ? null : stored.id === booking.deposit.id ? stored.revision : -1
        if (found !== expected) return yield* conflict(network, `deposit of log ${key} is not at the revision the booking expects`)
      }
    })

  return Scanning.DepositBook.of({
    pending: (network) =>
      sql<PendingRow>`
        SELECT ${sql.literal(observedLogColumns)}, a.confirmation_rule AS rule
        FROM observed_logs o JOIN apps a ON a.tenant_id = o.tenant_id AND a.network = o.network
        WHERE o.network = ${network} AND NOT o.booked
        ORDER BY o.block_number, o.txid, o.log_index`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row): Scanning.PendingTransfer => ({ ...toObservedTransfer(row), rule: row.rule }))
        )
      ),

    depositsOf: (network, logs) =>
      logs.length === 0 ? Effect.succeed([]) : sql<DepositRow>`
        SELECT ${columns} FROM deposits d
        JOIN unnest(${textArray(logs.map((l) => l.txid))}::text[], ${integerArray(logs.map((l) => l.logIndex))}::int[]) AS k(txid, log_index)
          ON d.txid = k.txid AND d.log_index = k.log_index
        WHERE d.network = ${network}`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toDeposit))),

    // Deposit IDs come from the table's identity, event IDs from the sequence sweep tasks share.
    reserveIds: ({ deposits, events }) =>
      deposits + events === 0 ? Effect.succeed({ deposits: [], events: [] }) : sql<{ deposits: ReadonlyArray<string> | null; events: ReadonlyArray<string> | null }>`
        SELECT (SELECT array_agg(nextval(pg_get_serial_sequence('deposits', 'id'))::text) FROM generate_series(1, ${deposits})) AS deposits,
               (SELECT array_agg(nextval('task_event_id_seq')::text) FROM generate_series(1, ${events})) AS events`.pipe(
        Effect.orDie,
        Effect.map(([row]) => ({
          deposits: (row!.deposits ?? []) as ReadonlyArray<Deposits.DepositId>,
          events: (row!.events ?? []) as ReadonlyArray<Deposits.EventId>
        }))
      ),

    // One transaction for a chunk of bookings: new deposits and their events are written by one statement each.
    book: (network, bookings) =>
      bookings.length === 0 ? Effect.void : sql.withTransaction(
        Effect.gen(function*() {
          yield* expectations(network, bookings)
          const confirms = bookings.filter((b): b is Extract<Scanning.Booking, { _tag: "Confirm" }> => b._tag === "Confirm")
          const fresh = confirms.filter((b) => b.replaces === null)
          if (fresh.length > 0) {
            yield* sql`INSERT INTO deposits ${sql.insert(fresh.map((b) => depositColumnsOf(b.deposit, b.at)))}`
          }
          for (const again of confirms.filter((b) => b.replaces !== null)) {
            yield* sql`UPDATE deposits SET ${sql.update(revisionColumnsOf(again.deposit, again.at))} WHERE id = ${again.deposit.id}`
          }
          yield* insertEvents(sql, confirms.map((b) => b.event))
          yield* sql`
            UPDATE observed_logs o SET booked = true
            FROM unnest(${textArray(bookings.map((b) => b.log.txid))}::text[],
                        ${integerArray(bookings.map((b) => b.log.logIndex))}::int[]) AS k(txid, log_index)
            WHERE o.network = ${network} AND o.txid = k.txid AND o.log_index = k.log_index`
          yield* changeTotals(network, confirms.map((b) => ({ tenantId: b.deposit.tenantId, change: b.totalChange })))
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die)),

    orphaned: (network, from) =>
      sql<DepositRow>`
        SELECT ${columns} FROM deposits d
        WHERE d.network = ${network} AND d.status = 'confirmed' AND d.block_number >= ${from.toString()}
          AND NOT EXISTS (SELECT 1 FROM scanned_blocks b WHERE b.network = d.network AND b.number = d.block_number
                          AND b.hash = d.block_hash)
        ORDER BY d.id`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toDeposit))),

    revert: (network, reversal) =>
      sql.withTransaction(
        Effect.gen(function*() {
          const [still] = yield* sql<{ id: string }>`
            SELECT d.id::text FROM deposits d
            WHERE d.id = ${reversal.deposit.id} AND d.network = ${network} AND d.status = 'confirmed'
              AND d.revision = ${reversal.replaces.revision} AND d.block_number >= ${reversal.from.toString()}
              AND NOT EXISTS (SELECT 1 FROM scanned_blocks b WHERE b.network = d.network AND b.number = d.block_number
                              AND b.hash = d.block_hash)
            FOR UPDATE OF d`
          if (still === undefined) return yield* conflict(network, `deposit ${reversal.deposit.id} is no longer confirmed in a dropped block`)
          yield* sql`UPDATE deposits SET ${sql.update(revisionColumnsOf(reversal.deposit, reversal.at))} WHERE id = ${reversal.deposit.id}`
          yield* insertEvents(sql, [reversal.event])
          yield* changeTotals(network, [{ tenantId: reversal.deposit.tenantId, change: reversal.totalChange }])
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
  })
})

const sumByTenant = (changes: ReadonlyArray<{ readonly tenantId: string; readonly change: bigint }>) => {
  const sums = new Map<string, bigint>()
  for (const { change, tenantId } of changes) sums.set(tenantId, (sums.get(tenantId) ?? 0n) + change)
  return sums
}

export const layer = Layer.effect(Scanning.DepositBook, make)
