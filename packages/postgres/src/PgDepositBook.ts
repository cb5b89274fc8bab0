import { SqlClient } from "@effect/sql"
import {
  type ConfirmationRule,
  type Deposit,
  DepositBook,
  type DepositId,
  depositRecord,
  type EventId,
  type Network,
  type PendingTransfer,
  type TenantId,
  type WalletId
} from "@collector/core"
import { Effect, Layer } from "effect"
import { depositColumns, type DepositRow, toDeposit } from "./DepositRows"

// decisions.md: a delivery round lasts 24 hours from its start.
const roundMillis = 24 * 60 * 60 * 1000

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

  // The event carries the exact record of this revision; the payload text is what every delivery sends.
  const recordEvent = (deposit: Deposit, at: Date) =>
    sql`
      INSERT INTO events (id, tenant_id, network, event_type, deposit_id, revision, payload, next_attempt, deadline_at, created_at)
      VALUES (${deposit.eventId}, ${deposit.tenantId}, ${deposit.network},
              ${deposit.status === "confirmed" ? "deposit.confirmed" : "deposit.reverted"}, ${deposit.id}, ${deposit.revision},
              ${JSON.stringify(depositRecord(deposit))}, ${at}, ${new Date(at.getTime() + roundMillis)}, ${at})`

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
    confirm: (transfer, confirmation, at) =>
      sql.withTransaction(
        Effect.gen(function*() {
          const [observed] = yield* sql<{ block_hash: string; booked: boolean }>`
            SELECT block_hash, booked FROM observed_logs
            WHERE network = ${transfer.network} AND txid = ${transfer.txid} AND log_index = ${transfer.logIndex}
            FOR UPDATE`
          if (observed === undefined || observed.booked || observed.block_hash !== transfer.blockHash) return "stale" as const
          const [existing] = yield* sql<ExistingRow>`
            SELECT id::text, status, revision, block_hash, created_at FROM deposits
            WHERE network = ${transfer.network} AND txid = ${transfer.txid} AND log_index = ${transfer.logIndex}
            FOR UPDATE`
          const markBooked = sql`
            UPDATE observed_logs SET booked = true
            WHERE network = ${transfer.network} AND txid = ${transfer.txid} AND log_index = ${transfer.logIndex}`
          if (existing?.status === "confirmed") {
            if (existing.block_hash !== transfer.blockHash) return "stale" as const
            yield* markBooked
            return "already" as const
          }
          const eventId = yield* nextEventId
          const fields = {
            event_id: eventId,
            status: "confirmed",
            block_number: transfer.blockNumber.toString(),
            block_hash: transfer.blockHash,
            block_time: transfer.blockTime,
            confirmation_type: confirmation.rule,
            confirmations: confirmation.confirmations,
            updated_at: at
          }
          const [row] = existing === undefined
            ? yield* sql<DepositRow>`
                INSERT INTO deposits AS d ${
              sql.insert({
                ...fields,
                tenant_id: transfer.tenantId,
                network: transfer.network,
                wallet_id: transfer.walletId,
                txid: transfer.txid,
                log_index: transfer.logIndex,
                revision: 1,
                custom_id: transfer.customId,
                address: transfer.address,
                source: transfer.source,
                contract: transfer.contract,
                amount: transfer.amount.toString(),
                created_at: at
              })
            }
                RETURNING ${columns}`
            : yield* sql<DepositRow>`
                UPDATE deposits d SET ${sql.update(fields)}, revision = d.revision + 1
                WHERE d.id = ${existing.id} RETURNING ${columns}`
          const deposit = toDeposit(row!)
          yield* recordEvent(deposit, at)
          yield* markBooked
          yield* addToTotal(deposit.tenantId, deposit.network, deposit.amount)
          return "booked" as const
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
          yield* recordEvent(deposit, at)
          yield* subtractFromTotal(deposit.tenantId, deposit.network, deposit.amount)
          return true
        })
      ).pipe(Effect.orDie)
  })
})

export const PgDepositBook = Layer.effect(DepositBook, make)
