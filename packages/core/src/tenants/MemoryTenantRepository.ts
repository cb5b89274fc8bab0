import { Clock, Effect, Layer, Option } from "effect"
import type { AppId, TenantId } from "../kernel/Ids.js"
import { compareIds, isCanonicalPositiveInt64 } from "../kernel/Int64Id.js"
import type { Network } from "../kernel/Network.js"
import type { AppSummary, TenantWithApps } from "./Tenant.js"
import { TenantHasNoApp, TenantNameTaken, TenantNotFound } from "./TenantErrors.js"
import { TenantRepository } from "./TenantRepository.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { accessTokens, type AppRow, apps, type TenantRow, tenants } from "../memory/MemoryTables.js"

const byNetwork = (a: AppSummary, b: AppSummary) => (a.network < b.network ? -1 : a.network > b.network ? 1 : 0)

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const tenantRows = db.table(tenants)
  const appRows = db.table(apps)
  const tokens = db.table(accessTokens)
  const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

  const withApps = (tenant: TenantRow): TenantWithApps => ({
    id: tenant.id,
    name: tenant.name,
    status: tenant.status,
    expiresAt: tenant.expiresAt,
    createdAt: tenant.createdAt,
    apps: appRows
      .filter((app) => app.tenantId === tenant.id)
      .map((app): AppSummary => ({ appId: app.appId as AppId, network: app.network, confirmationRule: app.confirmationRule, depositMinimum: app.depositMinimum }))
      .sort(byNetwork)
  })

  // The unique index `tenants_live_name`: a name belongs to at most one tenant that is not deleted.
  const liveNamed = (name: string) => tenantRows.find((t) => t.name === name && t.status !== "deleted")

  const appOf = (id: TenantId, network: Network) => appRows.find((app) => app.tenantId === id && app.network === network)

  /** Changes the scope's app (and whatever `alongside` writes with it), or reports that it has none. */
  const changeApp = (id: TenantId, network: Network, change: (app: AppRow) => AppRow, alongside?: (appId: string) => void) =>
    Effect.flatMap(
      db.atomically(() => {
        const app = appOf(id, network)
        if (app === undefined) return undefined
        appRows.put(app.appId, change(app))
        alongside?.(app.appId)
        return app.appId as AppId
      }),
      (appId) => (appId === undefined ? Effect.fail(new TenantHasNoApp({ reference: id, network })) : Effect.succeed(appId))
    )

  return TenantRepository.of({
    reserveTenantId: db.atomically(() => db.nextId("tenant") as TenantId),
    create: (name, credentials, reserved) =>
      Effect.flatMap(now, (at) =>
        db.atomically(() => {
          const length = [...name].length
          if (length < 1 || length > 200) throw new Error(`tenants: name of ${length} characters`)
          if (liveNamed(name) !== undefined) return undefined
          const id = reserved ?? db.nextId("tenant") as TenantId
          if (tenantRows.has(id)) throw new Error(`tenants: ${id} exists already`)
          tenantRows.put(id, { id, name, status: "active", expiresAt: null, createdAt: at, updatedAt: at })
          for (const credential of credentials) {
            if (appOf(id, credential.network) !== undefined) throw new Error(`apps: tenant ${id} has an app on ${credential.network} already`)
            const appId = db.nextId("app")
            appRows.put(appId, {
              appId,
              tenantId: id,
              network: credential.network,
              secret: credential.secret,
              webhookKey: credential.webhookKey,
              confirmationRule: credential.confirmationRule,
              depositMinimum: null,
              createdAt: at,
              secretRotatedAt: at
            })
          }
          return withApps(tenantRows.get(id)!)
        })).pipe(Effect.flatMap((tenant) => (tenant === undefined ? Effect.fail(new TenantNameTaken({ name })) : Effect.succeed(tenant)))),

    list: db.atomically(() => [...tenantRows.values()].sort((a, b) => compareIds(a.id, b.id)).map(withApps)),

    find: (reference) =>
      Effect.flatMap(
        db.atomically(() => {
          const byId = isCanonicalPositiveInt64(reference) ? tenantRows.get(reference as TenantId) : undefined
          const found = byId ?? liveNamed(reference)
          return found === undefined ? undefined : withApps(found)
        }),
        (tenant) => (tenant === undefined ? Effect.fail(new TenantNotFound({ reference })) : Effect.succeed(tenant))
      ),

    setStatus: (id, status) =>
      Effect.flatMap(now, (at) =>
        db.atomically(() => {
          const tenant = tenantRows.get(id)
          if (tenant === undefined) return
          if (status !== "deleted" && tenant.status === "deleted" && liveNamed(tenant.name) !== undefined) {
            throw new Error(`tenants: another live tenant is named "${tenant.name}"`)
          }
          tenantRows.put(id, { ...tenant, status, updatedAt: at })
        })),

    setExpiry: (id, expiresAt) =>
      Effect.flatMap(now, (at) =>
        db.atomically(() => {
          if (tenantRows.has(id)) tenantRows.update(id, (tenant) => ({ ...tenant, expiresAt, updatedAt: at }))
        })),

    // Tokens were issued under the old secret: rotating it must cut them off.
    replaceSecret: (id, network, secret) =>
      Effect.flatMap(now, (at) =>
        changeApp(id, network, (app) => ({ ...app, secret, secretRotatedAt: at }), (appId) => {
          for (const [key, token] of [...tokens.entries()]) if (token.appId === appId) tokens.delete(key)
        })),

    replaceWebhookKey: (id, network, webhookKey) => changeApp(id, network, (app) => ({ ...app, webhookKey })),

    setConfirmationRule: (id, network, confirmationRule) => Effect.asVoid(changeApp(id, network, (app) => ({ ...app, confirmationRule }))),

    setDepositMinimum: (id, network, depositMinimum) => Effect.asVoid(changeApp(id, network, (app) => ({ ...app, depositMinimum }))),

    credential: (appId) =>
      db.atomically(() => {
        const app = appRows.get(appId)
        const tenant = app === undefined ? undefined : tenantRows.get(app.tenantId)
        return app === undefined || tenant === undefined ? Option.none() : Option.some({
          appId,
          tenantId: app.tenantId,
          network: app.network,
          secret: app.secret,
          webhookKey: app.webhookKey,
          confirmationRule: app.confirmationRule,
          tenantStatus: tenant.status,
          tenantExpiresAt: tenant.expiresAt
        })
      })
  })
})

export const layer = Layer.effect(TenantRepository, make)
