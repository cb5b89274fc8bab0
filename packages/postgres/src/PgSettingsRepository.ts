import { SqlClient } from "@effect/sql"
import { type Kernel, Settings } from "@collector/core"
import { type Context, Effect, Layer } from "effect"

export interface SettingsRow {
  readonly collection_address: string
  readonly collection_wallet_id: string | null
  readonly collection_updated_at: Date | null
  readonly automation_enabled: boolean
  readonly automation_threshold: string
  readonly automation_interval_minutes: number
  readonly max_wallet_trx_fee: string
  readonly max_rental_cost: string
  readonly rental_allowed: boolean
  readonly automation_updated_at: Date | null
  readonly webhook_url: string
  readonly webhook_enabled: boolean
  readonly webhook_updated_at: Date | null
}

/** Every column a settings row is read with (`SettingsRow`). */
export const settingsColumns = `collection_address, collection_wallet_id::text, collection_updated_at, automation_enabled,
  automation_threshold::text, automation_interval_minutes, max_wallet_trx_fee::text, max_rental_cost::text,
  rental_allowed, automation_updated_at, webhook_url, webhook_enabled, webhook_updated_at`

export const automationOf = (r: SettingsRow): Settings.AutomationPolicy => ({
  enabled: r.automation_enabled,
  threshold: BigInt(r.automation_threshold),
  intervalMinutes: r.automation_interval_minutes,
  maxWalletTrxFee: BigInt(r.max_wallet_trx_fee),
  maxRentalCost: BigInt(r.max_rental_cost),
  rentalAllowed: r.rental_allowed,
  updatedAt: r.automation_updated_at
})

const toSettings = (r: SettingsRow | undefined): Settings.StoredSettings =>
  r === undefined
    ? { collection: { address: "", walletId: null, updatedAt: null }, automation: null, webhook: { url: "", enabled: false, updatedAt: null } }
    : {
      collection: { address: r.collection_address, walletId: r.collection_wallet_id as Kernel.WalletId | null, updatedAt: r.collection_updated_at },
      // The automation columns count once the tenant has set the policy; until then they hold
      // whatever the row was created with, and the core applies its default.
      automation: r.automation_updated_at === null ? null : automationOf(r),
      webhook: { url: r.webhook_url, enabled: r.webhook_enabled, updatedAt: r.webhook_updated_at }
    }

/** One settings row per scope, created by the first write. */
export const make: Effect.Effect<Context.Tag.Service<typeof Settings.SettingsRepository>, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const returning = sql.unsafe(settingsColumns)

  const upsert = (tenantId: string, network: string, set: Record<string, unknown>) =>
    sql<SettingsRow>`
      INSERT INTO tenant_settings ${sql.insert({ tenant_id: tenantId, network, ...set })}
      ON CONFLICT (tenant_id, network) DO UPDATE SET ${sql.update(set)}
      RETURNING ${returning}`.pipe(Effect.orDie, Effect.map((rows) => rows[0]!))

  return Settings.SettingsRepository.of({
    get: (scope) =>
      sql<SettingsRow>`SELECT ${returning} FROM tenant_settings WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map((rows) => toSettings(rows[0]))
      ),
    setCollection: (scope, address, walletId) =>
      Effect.map(
        upsert(scope.tenantId, scope.network, { collection_address: address, collection_wallet_id: walletId, collection_updated_at: new Date() }),
        (row) => toSettings(row).collection
      ),
    setAutomation: (scope, p) =>
      Effect.map(
        upsert(scope.tenantId, scope.network, {
          automation_enabled: p.enabled,
          automation_threshold: p.threshold.toString(),
          automation_interval_minutes: p.intervalMinutes,
          max_wallet_trx_fee: p.maxWalletTrxFee.toString(),
          max_rental_cost: p.maxRentalCost.toString(),
          rental_allowed: p.rentalAllowed,
          automation_updated_at: new Date()
        }),
        automationOf
      ),
    setWebhook: (scope, c) =>
      Effect.map(
        upsert(scope.tenantId, scope.network, { webhook_url: c.url, webhook_enabled: c.enabled, webhook_updated_at: new Date() }),
        (row) => toSettings(row).webhook
      )
  })
})

export const layer = Layer.effect(Settings.SettingsRepository, make)
