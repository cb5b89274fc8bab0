import { SqlClient } from "@effect/sql"
import { type Kernel, Sweeps, Tenants } from "@collector/core"
import { type Context, Effect, Layer } from "effect"
import { automationOf, type SettingsRow, settingsColumns } from "./PgSettingsRepository.js"
import { render } from "./RowRuleSql.js"

type DueRow = SettingsRow & { readonly tenant_id: string }

// The columns core's rules read: the scope's settings (AutomationDue) and its tenant (tenantAvailability).
const dueColumns = {
  automationEnabled: "d.automation_enabled",
  collectionAddress: "d.collection_address",
  automationLastRunAt: "d.automation_last_run_at",
  automationIntervalMinutes: "d.automation_interval_minutes",
  automationRoundClaimedUntil: "d.automation_round_claimed_until"
} as const
const tenantColumns = { status: "t.status", expiresAt: "t.expires_at" } as const

export const make: Effect.Effect<Context.Tag.Service<typeof Sweeps.AutomationLedger>, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Only `due.tenant_id` shares a name with the settings row, so the rest need no alias.
  const settings = sql.unsafe(settingsColumns)
  return Sweeps.AutomationLedger.of({
    // Claim in one statement: a scope locked by another worker is skipped, not waited for. The
    // due scopes are picked once, in a CTE: as a subquery joined to the UPDATE the planner may
    // rescan them for every settings row, and each rescan skips the rows this statement has just
    // updated and takes the next ones, so far more than `limit` scopes were claimed. The UPDATE
    // returns its rows in the order its join reads them (the heap's), so they are sorted again
    // by the claim's keys.
    claimDue: (network, now, claimedUntil, limit) =>
      sql<DueRow>`
        WITH due AS MATERIALIZED (
          SELECT d.tenant_id FROM tenant_settings d JOIN tenants t ON t.id = d.tenant_id
          WHERE d.network = ${network} AND ${render(sql, Sweeps.AutomationDue.automationDue, dueColumns, { now })}
            AND ${render(sql, Tenants.tenantAvailability, tenantColumns, { now })}
          ORDER BY d.automation_last_run_at NULLS FIRST, d.tenant_id
          LIMIT ${limit}
          FOR UPDATE OF d SKIP LOCKED
        ), claimed AS (
          UPDATE tenant_settings s SET automation_round_claimed_until = ${claimedUntil}
          FROM due
          WHERE s.tenant_id = due.tenant_id AND s.network = ${network}
          RETURNING s.tenant_id AS id, s.automation_last_run_at AS last_run_at, s.tenant_id::text, ${settings}
        )
        SELECT * FROM claimed ORDER BY last_run_at NULLS FIRST, id`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map((row) => ({ scope: { tenantId: row.tenant_id as Kernel.TenantId, network }, policy: automationOf(row) })))
      ),
    finishRound: (scope, at, claimedUntil) =>
      sql`
        UPDATE tenant_settings SET automation_last_run_at = ${at}, automation_round_claimed_until = NULL
        WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}
          AND automation_round_claimed_until = ${claimedUntil}`.pipe(Effect.orDie, Effect.asVoid),
    candidates: (scope, threshold, limit) =>
      sql<{ id: string }>`
        SELECT w.id::text AS id FROM wallets w
        WHERE w.tenant_id = ${scope.tenantId} AND w.network = ${scope.network}
          AND ${render(sql, Sweeps.AutomationDue.automationCandidate, { balanceUsdt: "w.balance_usdt" }, { threshold })}
          AND NOT EXISTS (
            SELECT 1 FROM sweep_tasks t
            WHERE t.wallet_id = w.id AND ${render(sql, Sweeps.AutomationDue.taskStillCollecting, { status: "t.status" }, {})} OFFSET 0)
          AND NOT EXISTS (
            SELECT 1 FROM tenant_settings s
            WHERE s.tenant_id = w.tenant_id AND s.network = w.network AND s.collection_wallet_id = w.id)
        ORDER BY w.balance_usdt DESC NULLS LAST, w.id DESC
        LIMIT ${limit}`.pipe(Effect.orDie, Effect.map((rows) => rows.map((r) => r.id as Kernel.WalletId)))
  })
})

export const layer = Layer.effect(Sweeps.AutomationLedger, make)
