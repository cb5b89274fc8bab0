import { SqlClient, type Statement } from "@effect/sql"
import { Kernel, type Settings, Tenants } from "@collector/core"
import { type Context, Effect, Layer, Option } from "effect"
import { isUniqueViolationOf } from "./SqlErrors.js"

interface TenantRow {
  readonly id: string
  readonly name: string
  readonly status: Tenants.TenantStatus
  readonly expires_at: Date | null
  readonly created_at: Date
  readonly apps: ReadonlyArray<{ app_id: string; network: Kernel.Network; confirmation_rule: Settings.ConfirmationRule; deposit_minimum: string | null }> | null
}

interface CredentialRow {
  readonly app_id: string
  readonly tenant_id: string
  readonly network: Kernel.Network
  readonly secret_key_id: string
  readonly secret_sealed: Uint8Array
  readonly webhook_key_id: string
  readonly webhook_key_sealed: Uint8Array
  readonly confirmation_rule: Settings.ConfirmationRule
  readonly status: Tenants.TenantStatus
  readonly expires_at: Date | null
}

const toTenant = (row: TenantRow): Tenants.TenantWithApps => ({
  id: row.id as Kernel.TenantId,
  name: row.name,
  status: row.status,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  apps: (row.apps ?? [])
    .map((a): Tenants.AppSummary => ({ appId: String(a.app_id) as Kernel.AppId, network: a.network, confirmationRule: a.confirmation_rule,
      depositMinimum: a.deposit_minimum === null ? null : BigInt(a.deposit_minimum)
    }))
    .sort((a, b) => a.network.localeCompare(b.network))
})

export const make: Effect.Effect<Context.Tag.Service<typeof Tenants.TenantRepository>, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const selectTenants = (where: Statement.Fragment) => sql<TenantRow>`
    SELECT t.id, t.name, t.status, t.expires_at, t.created_at,
      (SELECT json_agg(json_build_object('app_id', a.app_id::text, 'network', a.network, 'confirmation_rule', a.confirmation_rule,
        'deposit_minimum', a.deposit_minimum::text))
         FROM apps a WHERE a.tenant_id = t.id) AS apps
    FROM tenants t WHERE ${where} ORDER BY t.id`

  const findById = (id: string) => Effect.map(selectTenants(sql`t.id = ${id}`), (rows) => Option.fromNullable(rows[0]))

  const find = (reference: string) =>
    Effect.gen(function*() {
      // Text that is no int64 cannot be an ID (comparing it with the bigint column would fail).
      const rows = Kernel.isCanonicalPositiveInt64(reference)
        ? yield* selectTenants(sql`t.id = ${reference} OR (t.name = ${reference} AND t.status <> 'deleted')`)
        : yield* selectTenants(sql`t.name = ${reference} AND t.status <> 'deleted'`)
      const row = rows.find((r) => r.id === reference) ?? rows[0]
      if (row === undefined) return yield* new Tenants.TenantNotFound({ reference })
      return toTenant(row)
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  const create = (name: string, apps: Parameters<Tenants.TenantRepository["Type"]["create"]>[1], id?: Kernel.TenantId) =>
    sql.withTransaction(
      Effect.gen(function*() {
        // A reserved ID was drawn from the identity's own sequence, so no generated one can collide.
        const [tenant] = id === undefined
          ? yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES (${name}) RETURNING id`
          : yield* sql<{ id: string }>`INSERT INTO tenants (id, name) OVERRIDING SYSTEM VALUE VALUES (${id}, ${name}) RETURNING id`
        for (const app of apps) {
          yield* sql`
            INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed, confirmation_rule)
            VALUES (${tenant!.id}, ${app.network}, ${app.secret.keyId}, ${app.secret.blob}, ${app.webhookKey.keyId},
                    ${app.webhookKey.blob}, ${app.confirmationRule})`
        }
        return toTenant(Option.getOrThrow(yield* findById(tenant!.id)))
      })
    ).pipe(
      // Only the name is the operator's to choose; two apps on one network is a caller's bug.
      Effect.catchIf(isUniqueViolationOf("tenants_live_name"), () => Effect.fail(new Tenants.TenantNameTaken({ name }))),
      Effect.catchTag("SqlError", Effect.die)
    )

  const appOf = (id: Kernel.TenantId, network: Kernel.Network) =>
    (rows: ReadonlyArray<{ app_id: string }>) =>
      rows[0] === undefined
        ? Effect.fail(new Tenants.TenantHasNoApp({ reference: id, network }))
        : Effect.succeed(String(rows[0].app_id) as Kernel.AppId)

  const replaceSecret = (id: Kernel.TenantId, network: Kernel.Network, secret: { keyId: string; blob: Uint8Array }) =>
    sql.withTransaction(
      Effect.gen(function*() {
        const rows = yield* sql<{ app_id: string }>`
          UPDATE apps SET secret_key_id = ${secret.keyId}, secret_sealed = ${secret.blob}, secret_rotated_at = now()
          WHERE tenant_id = ${id} AND network = ${network} RETURNING app_id`
        const appId = yield* appOf(id, network)(rows)
        // Tokens were issued under the old secret: rotating it must cut them off.
        yield* sql`DELETE FROM access_tokens WHERE app_id = ${appId}`
        return appId
      })
    ).pipe(Effect.catchTag("SqlError", Effect.die))

  return Tenants.TenantRepository.of({
    reserveTenantId: sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('tenants', 'id'))::text AS id`.pipe(
      Effect.map((rows) => rows[0]!.id as Kernel.TenantId),
      Effect.orDie
    ),
    create,
    list: selectTenants(sql`true`).pipe(Effect.map((rows) => rows.map(toTenant)), Effect.orDie),
    find,
    setStatus: (id, status) => Effect.orDie(sql`UPDATE tenants SET status = ${status}, updated_at = now() WHERE id = ${id}`),
    setExpiry: (id, at) => Effect.orDie(sql`UPDATE tenants SET expires_at = ${at}, updated_at = now() WHERE id = ${id}`),
    replaceSecret,
    replaceWebhookKey: (id, network, key) =>
      sql<{ app_id: string }>`
        UPDATE apps SET webhook_key_id = ${key.keyId}, webhook_key_sealed = ${key.blob}
        WHERE tenant_id = ${id} AND network = ${network} RETURNING app_id`.pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.flatMap(appOf(id, network))
      ),
    setDepositMinimum: (id, network, minimum) =>
      sql<{ app_id: string }>`
        UPDATE apps SET deposit_minimum = ${minimum === null ? null : minimum.toString()}::numeric
        WHERE tenant_id = ${id} AND network = ${network} RETURNING app_id`.pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.flatMap(appOf(id, network)),
        Effect.asVoid
      ),
    setConfirmationRule: (id, network, rule) =>
      sql<{ app_id: string }>`
        UPDATE apps SET confirmation_rule = ${rule} WHERE tenant_id = ${id} AND network = ${network} RETURNING app_id`.pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.flatMap(appOf(id, network)),
        Effect.asVoid
      ),
    credential: (appId) =>
      sql<CredentialRow>`
        SELECT a.app_id, a.tenant_id, a.network, a.secret_key_id, a.secret_sealed, a.webhook_key_id,
               a.webhook_key_sealed, a.confirmation_rule, t.status, t.expires_at
        FROM apps a JOIN tenants t ON t.id = a.tenant_id WHERE a.app_id = ${appId}`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          Option.map(Option.fromNullable(rows[0]), (r): Tenants.StoredCredential => ({
            appId: String(r.app_id) as Kernel.AppId,
            tenantId: String(r.tenant_id) as Kernel.TenantId,
            network: r.network,
            secret: { keyId: r.secret_key_id, blob: r.secret_sealed },
            webhookKey: { keyId: r.webhook_key_id, blob: r.webhook_key_sealed },
            confirmationRule: r.confirmation_rule,
            tenantStatus: r.status,
            tenantExpiresAt: r.expires_at
          }))
        )
      )
  })
})

export const layer = Layer.effect(Tenants.TenantRepository, make)
