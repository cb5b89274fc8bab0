import { type FixtureAutomationSettings, StorageFixtures } from "@collector/core/testing"
import { type Deposits, type Kernel, type Notifications, type Sweeps, Wallets } from "@collector/core"
import { SqlClient, SqlError } from "@effect/sql"

import { type Context, Effect, Layer } from "effect"
import * as WalletKeyRow from "../WalletKeyRow.js"
import { seedDeposit } from "./SeedDeposits.js"
import { insertEvents } from "../EventOutbox.js"

const fixtureKey = { keyId: "fixture", blob: new Uint8Array([1, 2, 3]) }

const text = (value: bigint | null | undefined) => value == null ? value : value.toString()

// The settings columns each fixture field writes; a field left out keeps the column as it is.
const settingsColumns = (fields: FixtureAutomationSettings): Record<string, unknown> => {
  const columns: Record<string, unknown> = {
    collection_address: fields.collectionAddress,
    collection_wallet_id: fields.collectionWalletId,
    automation_enabled: fields.enabled,
    automation_threshold: text(fields.threshold),
    automation_interval_minutes: fields.intervalMinutes,
    max_wallet_trx_fee: text(fields.maxWalletTrxFee),
    max_rental_cost: text(fields.maxRentalCost),
    rental_allowed: fields.rentalAllowed,
    automation_updated_at: fields.updatedAt,
    automation_last_run_at: fields.lastRunAt,
    automation_round_claimed_until: fields.roundClaimedUntil
  }
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined))
}

export const make: Effect.Effect<Context.Tag.Service<typeof StorageFixtures>, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return StorageFixtures.of({
    scope: (network, options) =>
      sql.withTransaction(Effect.gen(function*() {
        const [tenant] = yield* sql<{ id: string }>`
          INSERT INTO tenants (name) VALUES ('fixture-' || nextval(pg_get_serial_sequence('tenants', 'id'))) RETURNING id::text AS id`
        const [app] = yield* sql<{ app_id: string }>`
          INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed, confirmation_rule)
          VALUES (${tenant!.id}, ${network}, ${fixtureKey.keyId}, ${fixtureKey.blob}, ${fixtureKey.keyId}, ${fixtureKey.blob},
                  ${options?.confirmationRule ?? "solidified"})
          RETURNING app_id::text AS app_id`
        return { tenantId: tenant!.id as Kernel.TenantId, network, appId: app!.app_id }
      })).pipe(Effect.orDie),
    wallet: (scope, fields) =>
      sql.withTransaction(Effect.gen(function*() {
        const [{ id }] = (yield* sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('wallets', 'id'))::text AS id`) as [{ id: string }]
        const address = fields?.address ?? `TFixtureWallet${id.padStart(20, "0")}`
        const customId = fields?.customId ?? `fixture-${id}`
        const synced = (fields?.balanceBlock ?? 0n) > 0n
        yield* sql`
          INSERT INTO wallets (id, tenant_id, network, address, custom_id, balance_usdt, balance_trx, balance_block, balance_stale_from, created_at)
          OVERRIDING SYSTEM VALUE
          VALUES (${id}, ${scope.tenantId}, ${scope.network}, ${address}, ${customId},
                  ${synced ? (fields?.balanceUsdt ?? 0n).toString() : null}, ${synced ? (fields?.balanceTrx ?? 0n).toString() : null},
                  ${(fields?.balanceBlock ?? 0n).toString()}, ${fields?.balanceStaleFrom?.toString() ?? null}, ${fields?.createdAt ?? new Date()})`
        const key = WalletKeyRow.toColumns(fields?.key ?? Wallets.localKey(fixtureKey))
        yield* sql`
          INSERT INTO wallet_keys (wallet_id, store, key_id, sealed_key, key_label)
          VALUES (${id}, ${key.store}, ${key.keyId}, ${key.sealedKey}, ${key.keyLabel})`
        yield* sql`
          INSERT INTO wallet_counts (tenant_id, network, shard, n) VALUES (${scope.tenantId}, ${scope.network}, 0, 1)
          ON CONFLICT (tenant_id, network, shard) DO UPDATE SET n = wallet_counts.n + 1`
        // A balance set here counts in its scope's running total, as the balance ledger's writes do.
        if (synced) {
          yield* sql`
            INSERT INTO wallet_balance_totals (tenant_id, network, shard, usdt, trx)
            VALUES (${scope.tenantId}, ${scope.network}, ${BigInt(id) % 16n}, ${(fields?.balanceUsdt ?? 0n).toString()}, ${(fields?.balanceTrx ?? 0n).toString()})
            ON CONFLICT (tenant_id, network, shard) DO UPDATE SET
              usdt = wallet_balance_totals.usdt + EXCLUDED.usdt, trx = wallet_balance_totals.trx + EXCLUDED.trx`
        }
        return { id: id as Kernel.WalletId, address, customId }
      })).pipe(Effect.orDie),
    walletCollected: (wallet, collectedUsdt, lastCollectedAt) =>
      sql`UPDATE wallets SET collected_usdt = ${collectedUsdt.toString()}, last_collected_at = ${lastCollectedAt} WHERE id = ${wallet}`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),
    tenantStatus: (tenantId, status, expiresAt) =>
      sql`UPDATE tenants SET status = ${status}, expires_at = ${expiresAt} WHERE id = ${tenantId}`.pipe(Effect.orDie, Effect.asVoid),
    seedDeposit: (scope, wallet, fields = {}) =>
      seedDeposit({ ...scope, ...wallet }, {
        ...fields,
        amount: fields.amount?.toString(),
        blockNumber: fields.blockNumber?.toString(),
        blockTime: fields.blockTime?.toISOString(),
        createdAt: fields.createdAt?.toISOString()
      }).pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.map((seeded) => ({ id: seeded.id as Deposits.DepositId, eventId: seeded.eventId as Deposits.EventId, txid: seeded.txid }))
      ),
    markBalanceStale: (walletId, block) =>
      sql`UPDATE wallets SET balance_stale_from = greatest(coalesce(balance_stale_from, 0), ${block.toString()}) WHERE id = ${walletId}`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),
    walletBalances: (walletId) =>
      sql<{ usdt: string | null; trx: string | null; block: string; synced_at: Date | null; stale_from: string | null }>`
        SELECT balance_usdt::text AS usdt, balance_trx::text AS trx, balance_block::text AS block, balance_synced_at AS synced_at,
               balance_stale_from::text AS stale_from
        FROM wallets WHERE id = ${walletId}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => ({
          usdt: row!.usdt === null ? null : BigInt(row!.usdt),
          trx: row!.trx === null ? null : BigInt(row!.trx),
          block: BigInt(row!.block),
          syncedAt: row!.synced_at,
          staleFrom: row!.stale_from === null ? null : BigInt(row!.stale_from)
        }))
      ),
    observedLogs: (network) =>
      sql<{ txid: string; log_index: number; block_number: string; block_hash: string; wallet_id: string; amount: string; booked: boolean }>`
        SELECT txid, log_index, block_number::text, block_hash, wallet_id::text, amount::text, booked FROM observed_logs
        WHERE network = ${network} ORDER BY txid COLLATE "C", log_index`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row) => ({
            txid: row.txid,
            logIndex: row.log_index,
            blockNumber: BigInt(row.block_number),
            blockHash: row.block_hash,
            walletId: row.wallet_id as Kernel.WalletId,
            amount: BigInt(row.amount),
            booked: row.booked
          }))
        )
      ),
    markLogBooked: (network, txid, logIndex) =>
      sql`UPDATE observed_logs SET booked = true WHERE network = ${network} AND txid = ${txid} AND log_index = ${logIndex}`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),
    automationSettings: (scope, fields) =>
      Effect.gen(function*() {
        yield* sql`INSERT INTO tenant_settings (tenant_id, network) VALUES (${scope.tenantId}, ${scope.network}) ON CONFLICT DO NOTHING`
        const columns = settingsColumns(fields)
        if (Object.keys(columns).length === 0) return
        yield* sql`UPDATE tenant_settings SET ${sql.update(columns)} WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}`
      }).pipe(sql.withTransaction, Effect.orDie),
    automationRound: (scope) =>
      sql<{ last_run_at: Date | null; claimed_until: Date | null }>`
        SELECT automation_last_run_at AS last_run_at, automation_round_claimed_until AS claimed_until FROM tenant_settings
        WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => ({ lastRunAt: row?.last_run_at ?? null, roundClaimedUntil: row?.claimed_until ?? null }))
      ),
    seedSweepTask: (scope, wallet, fields = {}) =>
      Effect.gen(function*() {
        const txid = fields.txid ?? ""
        const signed = txid === "" ? null : "0a"
        const [row] = yield* sql<{ id: string }>`
          INSERT INTO sweep_tasks (tenant_id, network, wallet_id, address, mode, destination, origin, status, txid, raw_data_hex, signature,
                                   tx_expiration, fee_limit, created_at, updated_at, next_step_at, prepare_by)
          VALUES (${scope.tenantId}, ${scope.network}, ${wallet.id}, ${wallet.address}, 'all',
                  ${fields.destination ?? "TFixtureCollectionAddress0000000000"}, 'manual', ${fields.status ?? "pending"},
                  ${txid}, ${signed}, ${signed === null ? null : "0b"}, ${signed === null ? null : new Date()}, ${signed === null ? null : "1"},
                  now(), now(), now(), now())
          RETURNING id::text AS id`
        return row!.id as Sweeps.SweepTaskId
      }).pipe(Effect.orDie),
    event: (event) => insertEvents(sql, [event]).pipe(Effect.orDie),
    sweptWalletBooks: (walletId) =>
      sql<{ collected_usdt: string; last_collected_at: Date | null; balance_stale_from: string | null }>`
        SELECT collected_usdt::text AS collected_usdt, last_collected_at, balance_stale_from::text AS balance_stale_from
        FROM wallets WHERE id = ${walletId}`.pipe(
        Effect.orDie,
        Effect.flatMap(([row]) =>
          row === undefined ? Effect.dieMessage(`no wallet ${walletId}`) : Effect.succeed({
            collectedUsdt: BigInt(row.collected_usdt),
            lastCollectedAt: row.last_collected_at,
            balanceStaleFrom: row.balance_stale_from === null ? null : BigInt(row.balance_stale_from)
          })
        )
      ),
    scopeEvents: (scope) =>
      sql<{ id: string; event_type: Notifications.EventType; deposit_id: string | null; revision: number | null; payload: string }>`
        SELECT id::text AS id, event_type, deposit_id::text AS deposit_id, revision, payload FROM events
        WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network} ORDER BY events.id`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row) => ({ id: row.id, eventType: row.event_type, depositId: row.deposit_id, revision: row.revision, payload: row.payload }))
        )
      ),
    transaction: (effect) =>
      sql.withTransaction(effect).pipe(
        // The transaction's own failures are storage failures; the effect's stay its own.
        Effect.catchIf((error): error is SqlError.SqlError => error instanceof SqlError.SqlError, Effect.die)
      )
  })
})

export const layer = Layer.effect(StorageFixtures, make)
