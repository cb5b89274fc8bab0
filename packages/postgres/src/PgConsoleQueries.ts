import { SqlClient } from "@effect/sql"
import { type Kernel, type Notifications, Operators, type Settings, type Sweeps, type Tenants } from "@collector/core"
import { Effect, Layer, Option } from "effect"

const unfinished = ["pending", "ready", "signed", "broadcast", "unknown"]

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // Both periods in one pass over the longer one's deposits: the day's are most of the page's reads.
  const tallies = (network: Kernel.Network, since: { readonly hour: Date; readonly day: Date }) =>
    sql<{ hour_n: string; hour_usdt: string; day_n: string; day_usdt: string }>`
      SELECT count(*) FILTER (WHERE created_at >= ${since.hour})::text AS hour_n,
             coalesce(sum(amount) FILTER (WHERE created_at >= ${since.hour}), 0)::text AS hour_usdt,
             count(*) FILTER (WHERE created_at >= ${since.day})::text AS day_n,
             coalesce(sum(amount) FILTER (WHERE created_at >= ${since.day}), 0)::text AS day_usdt
      FROM deposits
      WHERE network = ${network} AND status = 'confirmed' AND created_at >= least(${since.hour}::timestamptz, ${since.day}::timestamptz)`.pipe(
      Effect.map(([row]) => ({
        hour: { count: Number(row!.hour_n), usdt: BigInt(row!.hour_usdt) },
        day: { count: Number(row!.day_n), usdt: BigInt(row!.day_usdt) }
      }))
    )

  return Operators.ConsoleQueries.of({
    networkActivity: (network, since, countLimit) =>
      Effect.all({
        position: sql<{ block_number: string; head_number: string; solidified_number: string; updated_at: Date }>`
          SELECT block_number::text, head_number::text, solidified_number::text, updated_at FROM scan_cursors WHERE network = ${network}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (r) => ({
              scanned: BigInt(r.block_number),
              head: BigInt(r.head_number),
              solidified: BigInt(r.solidified_number),
              updatedAt: r.updated_at
            }))
          )
        ),
        deposits: tallies(network, since),
        webhookBacklog: sql<{ n: string }>`
          SELECT count(*)::text AS n FROM (
            SELECT 1 FROM events WHERE network = ${network} AND status IN ('pending', 'delivering') LIMIT ${countLimit}
          ) AS backlog`.pipe(Effect.map(([row]) => Number(row!.n))),
        sweepsByStatus: sql<{ status: Sweeps.SweepStatus; n: string }>`
          SELECT status, count(*)::text AS n FROM (
            SELECT status FROM sweep_tasks
            WHERE status <> 'succeeded' AND network = ${network} AND (status IN ${sql.in(unfinished)} OR updated_at >= ${since.day})
            ORDER BY id DESC LIMIT ${countLimit}
          ) AS recent GROUP BY status ORDER BY status`.pipe(Effect.map((rows) => rows.map((r) => ({ status: r.status, count: Number(r.n) }))))
      }, { concurrency: 1 }).pipe(
        Effect.map(({ deposits, ...rest }) => ({ ...rest, depositsSinceHour: deposits.hour, depositsSinceDay: deposits.day })),
        Effect.orDie
      ),

    tenants: (since, limit) =>
      sql<{
        tenant_id: string
        name: string
        status: Tenants.TenantStatus
        network: Kernel.Network
        wallets: string
        usdt: string
        collection_address: string | null
        confirmation_rule: Settings.ConfirmationRule
        automation_enabled: boolean | null
        automation_threshold: string | null
        webhook_url: string | null
        webhook_enabled: boolean | null
        delivered: string
        failed: string
      }>`
        SELECT t.id::text AS tenant_id, t.name, t.status, a.network,
          (SELECT coalesce(sum(n), 0) FROM wallet_counts c WHERE c.tenant_id = t.id AND c.network = a.network)::text AS wallets,
          (SELECT coalesce(sum(usdt), 0) FROM wallet_balance_totals b WHERE b.tenant_id = t.id AND b.network = a.network)::text AS usdt,
          s.collection_address, a.confirmation_rule,
          CASE WHEN s.automation_updated_at IS NULL THEN NULL ELSE s.automation_enabled END AS automation_enabled,
          CASE WHEN s.automation_updated_at IS NULL THEN NULL ELSE s.automation_threshold::text END AS automation_threshold,
          s.webhook_url, s.webhook_enabled,
          (SELECT count(*) FROM events e WHERE e.tenant_id = t.id AND e.network = a.network AND e.created_at >= ${since} AND e.status = 'delivered')::text AS delivered,
          (SELECT count(*) FROM events e WHERE e.tenant_id = t.id AND e.network = a.network AND e.created_at >= ${since} AND e.status = 'failed')::text AS failed
        FROM tenants t
        JOIN apps a ON a.tenant_id = t.id
        LEFT JOIN tenant_settings s ON s.tenant_id = t.id AND s.network = a.network
        WHERE t.status <> 'deleted'
        ORDER BY t.id, a.network
        LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((r) => ({
            tenantId: r.tenant_id,
            name: r.name,
            status: r.status,
            network: r.network,
            walletCount: Number(r.wallets),
            balanceUsdt: BigInt(r.usdt),
            collectionAddress: r.collection_address ?? "",
            confirmationRule: r.confirmation_rule,
            // A policy never set is the default, which is off (see effectiveSettings).
            automationEnabled: r.automation_enabled ?? false,
            automationThreshold: r.automation_threshold === null ? null : BigInt(r.automation_threshold),
            webhookUrl: r.webhook_url ?? "",
            webhookEnabled: r.webhook_enabled ?? false,
            deliveredSinceDay: Number(r.delivered),
            failedSinceDay: Number(r.failed)
          }))
        )
      ),

    troubledDeliveries: (limit) =>
      sql<{
        id: string
        tenant_id: string
        network: Kernel.Network
        event_type: Notifications.EventType
        status: Notifications.DeliveryStatus
        attempts: number
        current_round: number
        http_status: number | null
        last_error: string
        next_attempt: Date | null
        created_at: Date
      }>`
        SELECT e.id::text, e.tenant_id::text, e.network, e.event_type, e.status, e.attempts, e.current_round, e.last_error, e.next_attempt, e.created_at,
          (SELECT d.http_status FROM delivery_attempts d WHERE d.event_id = e.id ORDER BY d.id DESC LIMIT 1) AS http_status
        FROM events e
        WHERE e.status = 'failed' OR (e.status IN ('pending', 'delivering') AND e.attempts > 0)
        ORDER BY e.id DESC LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((r) => ({
            eventId: r.id,
            tenantId: r.tenant_id,
            network: r.network,
            eventType: r.event_type,
            status: r.status,
            attempts: r.attempts,
            round: r.current_round,
            lastHttpStatus: r.http_status,
            lastError: r.last_error,
            nextAttempt: r.next_attempt,
            createdAt: r.created_at
          }))
        )
      ),

    // Every ORDER BY here names its key through the table's alias (or a numeric column of its
    // own): a bare \`id\` would name the text alias \`id::text\` and sort as text (9 before 10).
    sweepsNotSucceeded: (limit) =>
      sql<{ id: string; tenant_id: string; network: Kernel.Network; address: string; status: Sweeps.SweepStatus; stage: string; reason: string; amount: string; updated_at: Date }>`
        SELECT id::text, tenant_id::text, network, address, status, stage, reason, amount::text, updated_at
        FROM sweep_tasks t WHERE status <> 'succeeded' ORDER BY t.id DESC LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((r) => ({
            id: r.id,
            tenantId: r.tenant_id,
            network: r.network,
            address: r.address,
            status: r.status,
            stage: r.stage,
            reason: r.reason,
            amount: BigInt(r.amount),
            updatedAt: r.updated_at
          }))
        )
      ),

    findWallets: (address) =>
      sql<{ id: string; tenant_id: string; network: Kernel.Network; address: string; custom_id: string; balance_usdt: string | null }>`
        SELECT id::text, tenant_id::text, network, address, custom_id, balance_usdt::text FROM wallets
        WHERE network IN ('main', 'nile') AND address = ${address} ORDER BY network`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((r) => ({
            walletId: r.id,
            tenantId: r.tenant_id,
            network: r.network,
            address: r.address,
            customId: r.custom_id,
            balanceUsdt: r.balance_usdt === null ? null : BigInt(r.balance_usdt)
          }))
        )
      ),

    findTransaction: (txid) =>
      sql<{ kind: "deposit" | "sweep"; id: string; tenant_id: string; network: Kernel.Network; status: string; address: string; amount: string }>`
        SELECT 'deposit' AS kind, id::text, tenant_id::text, network, status, address, amount::text, id AS n FROM deposits
          WHERE network IN ('main', 'nile') AND txid = ${txid}
        UNION ALL
        SELECT 'sweep' AS kind, id::text, tenant_id::text, network, status, address, amount::text, id AS n FROM sweep_tasks
          WHERE network IN ('main', 'nile') AND txid = ${txid}
        ORDER BY kind, n`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((r) => ({ kind: r.kind, id: r.id, tenantId: r.tenant_id, network: r.network, status: r.status, address: r.address, amount: BigInt(r.amount) }))
        )
      )
  })
})

export const layer = Layer.effect(Operators.ConsoleQueries, make)
