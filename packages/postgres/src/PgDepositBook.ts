import { SqlClient } from "@effect/sql"
import {
  type BookingOutcome,
  type ConfirmationRule,
  type ConfirmItem,
  type Deposit,
  DepositBook,
  type DepositId,
  depositRecord,
  type EventId,
  type Network,
  type PendingTransfer,
  roundDeadline,
  type TenantId,
  type WalletId
} from "@collector/core"
import { Effect, Layer } from "effect"
import { depositColumns, type DepositRow, toDeposit } from "./DepositRows"
import { integerArray, textArray } from "./PgArrays"


interface PendingRow {
  readonly network: Network
  readonly txid: string
  readonly log_index: number
  readonly block_number: string
  readonly block_hash: string
  readonly block_time: Date
  readonly tenant_id: string
  readonly wallet_id: string
  readonly custom_id: string
  readonly address: string
  readonly source: string
  readonly contract: string
  readonly amount: string
  readonly rule: ConfirmationRule
}

interface ExistingRow {
  readonly id: string
  readonly status: "confirmed" | "reverted"
  readonly revision: number
  readonly block_hash: string | null
  readonly created_at: Date
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.unsafe(depositColumns)

  const nextEventId = sql<{ id: string }>`SELECT nextval('task_event_id_seq')::text AS id`.pipe(Effect.map(([row]) => row!.id as EventId))

  // Each event carries the exact record of its revision; the payload text is what every delivery sends.
  const eventRow = (deposit: Deposit, at: Date) => ({
    id: deposit.eventId,
    tenant_id: deposit.tenantId,
    network: deposit.network,
    event_type: deposit.status === "confirmed" ? "deposit.confirmed" : "deposit.reverted",
    deposit_id: deposit.id,
    revision: deposit.revision,
    payload: JSON.stringify(depositRecord(deposit)),
    next_attempt: at,
    deadline_at: roundDeadline(at),
    created_at: at
  })
  const recordEvents = (deposits: ReadonlyArray<Deposit>, at: Date) =>
    sql`INSERT INTO events ${sql.insert(deposits.map((deposit) => eventRow(deposit, at)))}`

  const addToTotal = (tenantId: string, network: string, amount: bigint) =>
    sql`
      INSERT INTO deposit_totals (tenant_id, network, confirmed_usdt) VALUES (${tenantId}, ${network}, ${amount.toString()})
      ON CONFLICT (tenant_id, network) DO UPDATE SET confirmed_usdt = deposit_totals.confirmed_usdt + EXCLUDED.confirmed_usdt`

  // Not an upsert: PostgreSQL checks the proposed (negative) row before it finds the conflict.
  // A revert always follows its confirmation, so the row exists.
  const subtractFromTotal = (tenantId: string, network: string, amount: bigint) =>
    sql`
      UPDATE deposit_totals SET confirmed_usdt = confirmed_usdt - ${amount.toString()}
      WHERE tenant_id = ${tenantId} AND network = ${network}`

  return DepositBook.of({
    pending: (network) =>
      sql<PendingRow>`
        SELECT o.network, o.txid, o.log_index, o.block_number::text, o.block_hash, o.block_time, o.tenant_id::text,
               o.wallet_id::text, o.custom_id, o.address, o.source, o.contract, o.amount::text, a.confirmation_rule AS rule
        FROM observed_logs o JOIN apps a ON a.tenant_id = o.tenant_id AND a.network = o.network
        WHERE o.network = ${network} AND NOT o.booked
        ORDER BY o.block_number, o.txid, o.log_index`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row): PendingTransfer => ({
            network: row.network,
            txid: row.txid,
            logIndex: row.log_index,
            blockNumber: BigInt(row.block_number),
            blockHash: row.block_hash,
            blockTime: row.block_time,
            tenantId: row.tenant_id as TenantId,
            walletId: row.wallet_id as WalletId,
            customId: row.custom_id,
            address: row.address,
            source: row.source,
            contract: row.contract,
            amount: BigInt(row.amount),
            rule: row.rule
          }))
        )
      ),
    // One transaction for a whole pass's bookings: rows are locked in one order (so two
    // scanners cannot deadlock), new deposits and their events are written by one statement each.
    confirmAll: (items, at) =>
      items.length === 0 ? Effect.succeed([]) : sql.withTransaction(
        Effect.gen(function*() {
          const network = items[0]!.transfer.network
          const keyOf = (txid: string, logIndex: number) => `${txid}:${logIndex}`
          const txids = textArray(items.map((i) => i.transfer.txid))
          const logIndexes = integerArray(items.map((i) => i.transfer.logIndex))
          const observed = new Map((yield* sql<{ txid: string; log_index: number; block_hash: string; booked: boolean }>`
            SELECT o.txid, o.log_index, o.block_hash, o.booked
            FROM observed_logs o JOIN unnest(${txids}::text[], ${logIndexes}::int[]) AS k(txid, log_index)
              ON o.txid = k.txid AND o.log_index = k.log_index
            WHERE o.network = ${network}
            ORDER BY o.txid, o.log_index
            FOR UPDATE OF o`).map((row) => [keyOf(row.txid, row.log_index), row]))
          const existing = new Map((yield* sql<ExistingRow & { txid: string; log_index: number }>`
            SELECT d.id::text, d.txid, d.log_index, d.status, d.revision, d.block_hash, d.created_at
            FROM deposits d JOIN unnest(${txids}::text[], ${logIndexes}::int[]) AS k(txid, log_index)
              ON d.txid = k.txid AND d.log_index = k.log_index
            WHERE d.network = ${network}
            ORDER BY d.id
            FOR UPDATE OF d`).map((row) => [keyOf(row.txid, row.log_index), row]))

          const outcomes: Array<BookingOutcome> = []
          const fresh: Array<ConfirmItem> = []
          const again: Array<{ readonly item: ConfirmItem; readonly id: string }> = []
          const booked: Array<ConfirmItem> = []
          for (const item of items) {
            const key = keyOf(item.transfer.txid, item.transfer.logIndex)
            const seen = observed.get(key)
            const deposit = existing.get(key)
            if (seen === undefined || seen.booked || seen.block_hash !== item.transfer.blockHash) {
              outcomes.push("stale")
            } else if (deposit?.status === "confirmed") {
              // Confirmed in this very block already: nothing new to tell. In another block, the
              // revert of the old confirmation comes first (the next pass).
              outcomes.push(deposit.block_hash === item.transfer.blockHash ? "already" : "stale")
              if (deposit.block_hash === item.transfer.blockHash) booked.push(item)
            } else {
              outcomes.push("booked")
              booked.push(item)
              if (deposit === undefined) fresh.push(item)
              else again.push({ item, id: deposit.id })
            }
          }

          const confirmedFields = (item: ConfirmItem, eventId: string) => ({
            event_id: eventId,
            status: "confirmed",
            block_number: item.transfer.blockNumber.toString(),
            block_hash: item.transfer.blockHash,
            block_time: item.transfer.blockTime,
            confirmation_type: item.confirmation.rule,
            confirmations: item.confirmation.confirmations,
            updated_at: at
          })
          const written: Array<DepositRow> = []
          if (fresh.length > 0) {
            const eventIds = yield* sql<{ id: string }>`
              SELECT nextval('task_event_id_seq')::text AS id FROM generate_series(1, ${fresh.length})`
            written.push(...yield* sql<DepositRow>`
              INSERT INTO deposits AS d ${
              sql.insert(fresh.map((item, i) => ({
                ...confirmedFields(item, eventIds[i]!.id),
                tenant_id: item.transfer.tenantId,
                network: item.transfer.network,
                wallet_id: item.transfer.walletId,
                txid: item.transfer.txid,
                log_index: item.transfer.logIndex,
                revision: 1,
                custom_id: item.transfer.customId,
                address: item.transfer.address,
                source: item.transfer.source,
                contract: item.transfer.contract,
                amount: item.transfer.amount.toString(),
                created_at: at
              })))
            }
              RETURNING ${columns}`)
          }
          for (const { id, item } of again) {
            const eventId = yield* nextEventId
            written.push(...yield* sql<DepositRow>`
              UPDATE deposits d SET ${sql.update(confirmedFields(item, eventId))}, revision = d.revision + 1
              WHERE d.id = ${id} RETURNING ${columns}`)
          }
          const deposits = written.map(toDeposit)
          if (deposits.length > 0) yield* recordEvents(deposits, at)
          if (booked.length > 0) {
            yield* sql`
              UPDATE observed_logs o SET booked = true
              FROM unnest(${textArray(booked.map((i) => i.transfer.txid))}::text[],
                          ${integerArray(booked.map((i) => i.transfer.logIndex))}::int[]) AS k(txid, log_index)
              WHERE o.network = ${network} AND o.txid = k.txid AND o.log_index = k.log_index`
          }
          const totals = new Map<string, bigint>()
          for (const d of deposits) totals.set(d.tenantId, (totals.get(d.tenantId) ?? 0n) + d.amount)
          for (const [tenantId, amount] of totals) yield* addToTotal(tenantId, network, amount)
          return outcomes
        })
      ).pipe(Effect.orDie),
    orphaned: (network, from) =>
      sql<{ id: string }>`
        SELECT d.id::text FROM deposits d
        WHERE d.network = ${network} AND d.status = 'confirmed' AND d.block_number >= ${from.toString()}
          AND NOT EXISTS (SELECT 1 FROM scanned_blocks b WHERE b.network = d.network AND b.number = d.block_number
                          AND b.hash = d.block_hash)
        ORDER BY d.id`.pipe(Effect.orDie, Effect.map((rows) => rows.map((row) => row.id as DepositId))),
    revert: (network, id, from, at) =>
      sql.withTransaction(
        Effect.gen(function*() {
          const [still] = yield* sql<{ id: string }>`
            SELECT d.id::text FROM deposits d
            WHERE d.id = ${id} AND d.network = ${network} AND d.status = 'confirmed' AND d.block_number >= ${from.toString()}
              AND NOT EXISTS (SELECT 1 FROM scanned_blocks b WHERE b.network = d.network AND b.number = d.block_number
                              AND b.hash = d.block_hash)
            FOR UPDATE OF d`
          if (still === undefined) return false
          const eventId = yield* nextEventId
          // The reverted revision keeps the block fields of the confirmation it undoes.
          const [row] = yield* sql<DepositRow>`
            UPDATE deposits d SET status = 'reverted', revision = d.revision + 1, event_id = ${eventId}, updated_at = ${at}
            WHERE d.id = ${id} RETURNING ${columns}`
          const deposit = toDeposit(row!)
          yield* recordEvents([deposit], at)
          yield* subtractFromTotal(deposit.tenantId, deposit.network, deposit.amount)
          return true
        })
      ).pipe(Effect.orDie)
  })
})

export const layer = Layer.effect(DepositBook, make)
