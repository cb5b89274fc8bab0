import type { Delegation, Kernel, Memory, Notifications, Settings, Sweeps, Tenants } from "@collector/core"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as DepositRows from "./DepositRows.js"
import * as SweepRows from "./SweepRows.js"

// int8 and numeric come back as text (IDs stay text, money and block numbers become bigint).
const bigintOrNull = (text: string | null): bigint | null => (text === null ? null : BigInt(text))

/**
 * The database's tables in the memory tables' shapes (core's `StoreSnapshot`), read in one
 * repeatable-read transaction, so that a checker outside the service (the simulator's settling
 * and invariants) reads the same facts on either store. Each table by its key (as the memory
 * tables hold rows by ID; qualified, so that a key is never its text alias): in the heap's order, a seed's violations would be listed in an order
 * that changes with where PostgreSQL put the rows.
 */
export const readPgSnapshot: Effect.Effect<Memory.StoreSnapshot, never, SqlClient.SqlClient> = Effect.flatMap(SqlClient.SqlClient, (sql) => {
  const read = Effect.gen(function*() {
    yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`
    const tenants = yield* sql<{ id: string; name: string; status: Tenants.TenantStatus; expires_at: Date | null; created_at: Date; updated_at: Date }>`
      SELECT id::text AS id, name, status, expires_at, created_at, updated_at FROM tenants ORDER BY tenants.id`
    const apps = yield* sql<{
      app_id: string
      tenant_id: string
      network: Kernel.Network
      secret_key_id: string
      secret_sealed: Uint8Array
      webhook_key_id: string
      webhook_key_sealed: Uint8Array
      confirmation_rule: Settings.ConfirmationRule
      deposit_minimum: string | null
      created_at: Date
      secret_rotated_at: Date
    }>`
      SELECT app_id::text AS app_id, tenant_id::text AS tenant_id, network, secret_key_id, secret_sealed, webhook_key_id,
             webhook_key_sealed, confirmation_rule, deposit_minimum::text AS deposit_minimum, created_at, secret_rotated_at FROM apps ORDER BY apps.app_id`
    const wallets = yield* sql<{
      id: string
      tenant_id: string
      network: Kernel.Network
      address: string
      custom_id: string
      balance_usdt: string | null
      balance_trx: string | null
      balance_block: string
      collected_usdt: string
      last_collected_at: Date | null
      created_at: Date
      balance_synced_at: Date | null
      balance_stale_from: string | null
    }>`
      SELECT id::text AS id, tenant_id::text AS tenant_id, network, address, custom_id, balance_usdt::text AS balance_usdt,
             balance_trx::text AS balance_trx, balance_block::text AS balance_block, collected_usdt::text AS collected_usdt,
             last_collected_at, created_at, balance_synced_at, balance_stale_from::text AS balance_stale_from FROM wallets ORDER BY wallets.id`
    const settings = yield* sql<{
      tenant_id: string
      network: Kernel.Network
      collection_address: string
      collection_wallet_id: string | null
      collection_updated_at: Date | null
      automation_enabled: boolean
      automation_threshold: string
      automation_interval_minutes: number
      max_wallet_trx_fee: string
      max_rental_cost: string
      rental_allowed: boolean
      automation_updated_at: Date | null
      webhook_url: string
      webhook_enabled: boolean
      webhook_updated_at: Date | null
      automation_last_run_at: Date | null
      automation_round_claimed_until: Date | null
    }>`
      SELECT tenant_id::text AS tenant_id, network, collection_address, collection_wallet_id::text AS collection_wallet_id,
             collection_updated_at, automation_enabled, automation_threshold::text AS automation_threshold,
             automation_interval_minutes, max_wallet_trx_fee::text AS max_wallet_trx_fee, max_rental_cost::text AS max_rental_cost,
             rental_allowed, automation_updated_at, webhook_url, webhook_enabled, webhook_updated_at, automation_last_run_at,
             automation_round_claimed_until FROM tenant_settings ORDER BY tenant_settings.tenant_id, network COLLATE "C"`
    const cursors = yield* sql<{
      network: Kernel.Network
      block_number: string
      block_hash: string
      head_number: string
      solidified_number: string
      lease_holder: string
      lease_expires_at: Date | null
      updated_at: Date
    }>`
      SELECT network, block_number::text AS block_number, block_hash, head_number::text AS head_number,
             solidified_number::text AS solidified_number, lease_holder,
             CASE WHEN lease_expires_at = '-infinity' THEN NULL ELSE lease_expires_at END AS lease_expires_at, updated_at
      FROM scan_cursors ORDER BY network COLLATE "C"`
    const logs = yield* sql<DepositRows.ObservedLogRow & { booked: boolean }>`
      SELECT ${sql.literal(DepositRows.observedLogColumns)}, o.booked FROM observed_logs o
      ORDER BY o.network COLLATE "C", o.txid COLLATE "C", o.log_index`
    const deposits = yield* sql<DepositRows.DepositRow & { updated_at: Date }>`
      SELECT ${sql.literal(DepositRows.depositColumns)}, d.updated_at FROM deposits d ORDER BY d.id`
    const totals = yield* sql<{ tenant_id: string; network: Kernel.Network; confirmed_usdt: string }>`
      SELECT tenant_id::text AS tenant_id, network, confirmed_usdt::text AS confirmed_usdt FROM deposit_totals
      ORDER BY deposit_totals.tenant_id, network COLLATE "C"`
    const events = yield* sql<{
      id: string
      tenant_id: string
      network: Kernel.Network
      event_type: Notifications.EventType
      deposit_id: string | null
      revision: number | null
      payload: string
      status: Notifications.DeliveryStatus
      attempts: number
      current_round: number
      next_attempt: Date | null
      deadline_at: Date
      last_error: string
      created_at: Date
      delivered_at: Date | null
      round_url: string | null
      round_started_at: Date | null
      claimed_by: string | null
      claimed_until: Date | null
    }>`
      SELECT id::text AS id, tenant_id::text AS tenant_id, network, event_type, deposit_id::text AS deposit_id, revision, payload,
             status, attempts, current_round, next_attempt, deadline_at, last_error, created_at, delivered_at, round_url,
             round_started_at, claimed_by, claimed_until FROM events ORDER BY events.id`
    const rounds = yield* sql<{
      id: string
      event_id: string
      round: number
      url: string
      started_at: Date
      deadline_at: Date
      ended_at: Date | null
      outcome: Notifications.DeliveryOutcome | null
      reason: string
    }>`
      SELECT id::text AS id, event_id::text AS event_id, round, url, started_at, deadline_at, ended_at, outcome, reason
      FROM delivery_rounds ORDER BY delivery_rounds.id`
    const attempts = yield* sql<{
      id: string
      event_id: string
      round: number
      attempt: number
      url: string
      started_at: Date
      sent_at: Date | null
      ended_at: Date | null
      duration_ms: number | null
      http_status: number | null
      response_excerpt: string
      error: string
      outcome: Notifications.DeliveryOutcome | null
    }>`
      SELECT id::text AS id, event_id::text AS event_id, round, attempt, url, started_at, sent_at, ended_at, duration_ms, http_status,
             response_excerpt, error, outcome FROM delivery_attempts ORDER BY delivery_attempts.id`
    const delegations = yield* sql<{
      task_id: string
      network: Kernel.Network
      owner_address: string
      receiver_address: string
      energy: string
      balance: string
      state: Delegation.DelegationState
      delegate_txid: string
      delegate_expiration: Date
      reclaim_txid: string | null
      reclaim_expiration: Date | null
      created_at: Date
      updated_at: Date
    }>`SELECT task_id, network, owner_address, receiver_address, energy, balance, state, delegate_txid, delegate_expiration,
              reclaim_txid, reclaim_expiration, created_at, updated_at FROM energy_delegations ORDER BY task_id`
    const tasks = yield* sql<SweepRows.SweepRow & { claimed_by: string | null; claimed_until: Date | null }>`
      SELECT ${sql.literal(SweepRows.sweepColumns)}, t.claimed_by, t.claimed_until FROM sweep_tasks t ORDER BY t.id`
    return {
      tenants: tenants.map((r): Memory.MemoryTables.TenantRow => ({
        id: r.id as Kernel.TenantId,
        name: r.name,
        status: r.status,
        expiresAt: r.expires_at,
        createdAt: r.created_at,
        updatedAt: r.updated_at
      })),
      apps: apps.map((r): Memory.MemoryTables.AppRow => ({
        appId: r.app_id,
        tenantId: r.tenant_id as Kernel.TenantId,
        network: r.network,
        secret: { keyId: r.secret_key_id, blob: r.secret_sealed },
        webhookKey: { keyId: r.webhook_key_id, blob: r.webhook_key_sealed },
        confirmationRule: r.confirmation_rule,
        depositMinimum: r.deposit_minimum === null ? null : BigInt(r.deposit_minimum),
        createdAt: r.created_at,
        secretRotatedAt: r.secret_rotated_at
      })),
      wallets: wallets.map((r): Memory.MemoryTables.WalletRow => ({
        id: r.id as Kernel.WalletId,
        tenantId: r.tenant_id as Kernel.TenantId,
        network: r.network,
        address: r.address,
        customId: r.custom_id,
        balanceUsdt: bigintOrNull(r.balance_usdt),
        balanceTrx: bigintOrNull(r.balance_trx),
        balanceBlock: BigInt(r.balance_block),
        collectedUsdt: BigInt(r.collected_usdt),
        lastCollectedAt: r.last_collected_at,
        createdAt: r.created_at,
        balanceSyncedAt: r.balance_synced_at,
        balanceStaleFrom: bigintOrNull(r.balance_stale_from)
      })),
      tenantSettings: settings.map((r): Memory.MemoryTables.TenantSettingsRow => ({
        tenantId: r.tenant_id as Kernel.TenantId,
        network: r.network,
        collectionAddress: r.collection_address,
        collectionWalletId: r.collection_wallet_id as Kernel.WalletId | null,
        collectionUpdatedAt: r.collection_updated_at,
        automationEnabled: r.automation_enabled,
        automationThreshold: BigInt(r.automation_threshold),
        automationIntervalMinutes: r.automation_interval_minutes,
        maxWalletTrxFee: BigInt(r.max_wallet_trx_fee),
        maxRentalCost: BigInt(r.max_rental_cost),
        rentalAllowed: r.rental_allowed,
        automationUpdatedAt: r.automation_updated_at,
        webhookUrl: r.webhook_url,
        webhookEnabled: r.webhook_enabled,
        webhookUpdatedAt: r.webhook_updated_at,
        automationLastRunAt: r.automation_last_run_at,
        automationRoundClaimedUntil: r.automation_round_claimed_until
      })),
      scanCursors: cursors.map((r): Memory.MemoryTables.ScanCursorRow => ({
        network: r.network,
        blockNumber: BigInt(r.block_number),
        blockHash: r.block_hash,
        headNumber: BigInt(r.head_number),
        solidifiedNumber: BigInt(r.solidified_number),
        leaseHolder: r.lease_holder,
        leaseExpiresAt: r.lease_expires_at,
        updatedAt: r.updated_at
      })),
      observedLogs: logs.map((r): Memory.MemoryTables.ObservedLogRow => ({ ...DepositRows.toObservedTransfer(r), booked: r.booked })),
      deposits: deposits.map((r): Memory.MemoryTables.DepositRow => ({ ...DepositRows.toDeposit(r), updatedAt: r.updated_at })),
      depositTotals: totals.map((r) => ({ tenantId: r.tenant_id, network: r.network, confirmedUsdt: BigInt(r.confirmed_usdt) })),
      events: events.map((r): Memory.MemoryTables.EventRow => ({
        id: r.id,
        tenantId: r.tenant_id as Kernel.TenantId,
        network: r.network,
        eventType: r.event_type,
        depositId: r.deposit_id,
        revision: r.revision,
        payload: r.payload,
        status: r.status,
        attempts: r.attempts,
        currentRound: r.current_round,
        nextAttempt: r.next_attempt,
        deadlineAt: r.deadline_at,
        lastError: r.last_error,
        createdAt: r.created_at,
        deliveredAt: r.delivered_at,
        roundUrl: r.round_url,
        roundStartedAt: r.round_started_at,
        claimedBy: r.claimed_by,
        claimedUntil: r.claimed_until
      })),
      deliveryRounds: rounds.map((r): Memory.MemoryTables.DeliveryRoundRow => ({
        id: r.id,
        eventId: r.event_id,
        round: r.round,
        url: r.url,
        startedAt: r.started_at,
        deadlineAt: r.deadline_at,
        endedAt: r.ended_at,
        outcome: r.outcome,
        reason: r.reason
      })),
      deliveryAttempts: attempts.map((r): Memory.MemoryTables.DeliveryAttemptRow => ({
        id: r.id,
        eventId: r.event_id,
        round: r.round,
        attempt: r.attempt,
        url: r.url,
        startedAt: r.started_at,
        sentAt: r.sent_at,
        endedAt: r.ended_at,
        durationMs: r.duration_ms,
        httpStatus: r.http_status,
        responseExcerpt: r.response_excerpt,
        error: r.error,
        outcome: r.outcome
      })),
      sweepTasks: tasks.map((r): Memory.MemoryTables.SweepTaskRow => ({
        ...SweepRows.toSweepTask(r),
        claimedBy: r.claimed_by,
        claimedUntil: r.claimed_until
      })),
      delegations: delegations.map((r): Delegation.EnergyDelegation => ({
        taskId: r.task_id as Sweeps.SweepTaskId,
        network: r.network,
        owner: r.owner_address,
        receiver: r.receiver_address,
        energy: BigInt(r.energy),
        balance: BigInt(r.balance),
        state: r.state,
        delegateTxid: r.delegate_txid,
        delegateExpiration: r.delegate_expiration,
        reclaimTxid: r.reclaim_txid,
        reclaimExpiration: r.reclaim_expiration,
        createdAt: r.created_at,
        updatedAt: r.updated_at
      }))
    } satisfies Memory.StoreSnapshot
  })
  return sql.withTransaction(read).pipe(Effect.orDie)
})
