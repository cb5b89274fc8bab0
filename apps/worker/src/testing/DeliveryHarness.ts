import { WebhookEnvelopeSealer } from "@collector/api"
import { type Kernel, Notifications, Secrets } from "@collector/core"

import { DnsWebhookTargets, HostTableLookup, HttpsDeliveryTransport, type Lookup } from "@collector/outbound"
import { testCaPem } from "@collector/outbound/testing"
import { seedEvent as seedOutboxEvent } from "@collector/postgres/testing"
import { PgComponentStatus, PgSettingsRepository } from "@collector/postgres"
import { PgDeliveryLedger } from "@collector/postgres"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"

/** The master key of these tests (and of worker processes they start, as MASTER_KEY). */
export const masterKeyBytes = Buffer.alloc(32, 7)
export const keyring = MasterKeyring.layer({ current: MasterKey.unsafeMake(masterKeyBytes) })

/** A resolver whose table a test can swap, to change what a name resolves to between attempts. */
export const swappableLookup = (table: HostTableLookup.HostTable) => {
  let current = HostTableLookup.make(table)
  const lookup: Lookup = (host) => current(host)
  return { lookup, set: (next: HostTableLookup.HostTable) => void (current = HostTableLookup.make(next)) }
}

export interface HarnessOptions {
  readonly allowPrivateTargets?: boolean
  readonly lookup?: Lookup
  readonly responseTimeoutMs?: number
  readonly settings?: Partial<Notifications.DispatcherSettings>
  /** Wraps the Postgres ledger, to count or break its calls. */
  readonly ledger?: (ledger: Notifications.DeliveryLedger["Type"]) => Notifications.DeliveryLedger["Type"]
}

/** The real dispatcher over the real Postgres ledger, HTTPS transport and DNS checks; needs a SqlClient. */
export const dispatcherFor = (options: HarnessOptions = {}) => {
  const allowPrivateTargets = options.allowPrivateTargets ?? true
  return Notifications.Dispatcher.layer({ ...Notifications.defaultDispatcherSettings, ...options.settings }).pipe(
    Layer.provide(Layer.mergeAll(
      Notifications.OutboxSignal.layer,
      options.ledger === undefined
        ? PgDeliveryLedger.layer
        : Layer.effect(Notifications.DeliveryLedger, Effect.map(Notifications.DeliveryLedger, options.ledger)).pipe(Layer.provide(PgDeliveryLedger.layer)),
      PgSettingsRepository.layer,
      PgComponentStatus.layer,
      AesGcmSecretBox.layer.pipe(Layer.provide(keyring), Layer.provide(NodeEntropy.layer)),
      WebhookEnvelopeSealer.layer.pipe(Layer.provide(NodeEntropy.layer)),
      DnsWebhookTargets.layer({ allowPrivateTargets, lookup: options.lookup ?? HostTableLookup.make({ "receiver.test": "127.0.0.1" }) }),
      HttpsDeliveryTransport.layer({ extraCa: testCaPem, allowAnyPort: allowPrivateTargets, responseTimeoutMs: options.responseTimeoutMs ?? 1_000 })
    ))
  )
}

export interface SeededScope {
  readonly tenantId: string
  readonly appId: string
  readonly network: Kernel.Network
  /** The app's plaintext webhook key, to open what was delivered. */
  readonly webhookKey: Uint8Array
}

/** A tenant with one app whose webhook key is sealed under the test master key, and its webhook setting. */
export const seedScope = (webhook: { readonly url: string; readonly enabled: boolean }, network: Kernel.Network = "nile") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const box = AesGcmSecretBox.make(MasterKeyring.make({ current: MasterKey.unsafeMake(masterKeyBytes) }), NodeEntropy.make)
    const webhookKey = new Uint8Array(randomBytes(32))
    const [tenant] = yield* sql<{ id: string }>`
      INSERT INTO tenants (name) VALUES (${`hook-${randomBytes(6).toString("hex")}`}) RETURNING id::text`
    const sealed = yield* box.seal(webhookKey, Secrets.webhookKeyContext(tenant!.id as Kernel.TenantId, network))
    const [app] = yield* sql<{ app_id: string }>`
      INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed)
      VALUES (${tenant!.id}, ${network}, ${sealed.keyId}, ${Buffer.alloc(16)}, ${sealed.keyId}, ${sealed.blob})
      RETURNING app_id::text`
    yield* setWebhook(tenant!.id, network, webhook)
    return { tenantId: tenant!.id, appId: app!.app_id, network, webhookKey } satisfies SeededScope
  }).pipe(Effect.orDie)

export const setWebhook = (tenantId: string, network: Kernel.Network, webhook: { readonly url: string; readonly enabled: boolean }) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO tenant_settings (tenant_id, network, webhook_url, webhook_enabled, webhook_updated_at)
      VALUES (${tenantId}, ${network}, ${webhook.url}, ${webhook.enabled}, now())
      ON CONFLICT (tenant_id, network) DO UPDATE SET webhook_url = excluded.webhook_url, webhook_enabled = excluded.webhook_enabled`).pipe(
      Effect.orDie,
      Effect.asVoid
    )

/** An event as the outbox writes it: due at `at`, deadline 24 h later, payload stored as text. */
export const seedEvent = (scope: SeededScope, at: Date) =>
  Effect.gen(function*() {
    const payloadOf = (id: string) =>
      JSON.stringify({ event_id: id, event_type: "sweep.succeeded", network: scope.network, task_id: id, reason: "", amount: "1000000" })
    const id = yield* seedOutboxEvent(scope, { eventType: "sweep.succeeded", payload: payloadOf, createdAt: at.toISOString(), deadlineAt: Notifications.roundDeadline(at).toISOString() })
    return { id, payload: payloadOf(id) }
  })

export interface EventRow {
  readonly status: string
  readonly attempts: number
  readonly current_round: number
  readonly next_attempt: Date | null
  readonly deadline_at: Date
  readonly last_error: string
  readonly delivered_at: Date | null
  readonly round_url: string | null
  readonly round_started_at: Date | null
  readonly claimed_by: string | null
}

export const eventRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<EventRow>`
      SELECT status, attempts, current_round, next_attempt, deadline_at, last_error, delivered_at, round_url, round_started_at, claimed_by
      FROM events WHERE id = ${id}`).pipe(Effect.orDie, Effect.map((rows) => rows[0]!))

export interface AttemptRow {
  readonly round: number
  readonly attempt: number
  readonly url: string
  readonly started_at: Date
  readonly ended_at: Date | null
  readonly http_status: number | null
  readonly response_excerpt: string
  readonly error: string
  readonly outcome: string | null
}

export const attemptRows = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<AttemptRow>`
      SELECT round, attempt, url, started_at, ended_at, http_status, response_excerpt, error, outcome
      FROM delivery_attempts WHERE event_id = ${id} ORDER BY round, attempt`).pipe(Effect.orDie)

export const roundRows = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ round: number; url: string; outcome: string | null; reason: string; ended_at: Date | null }>`
      SELECT round, url, outcome, reason, ended_at FROM delivery_rounds WHERE event_id = ${id} ORDER BY round`).pipe(Effect.orDie)

/** What the redeliver operation does to a failed event: a new round, read afresh when it starts. */
export const redeliver = (id: string, now: Date) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      UPDATE events SET current_round = current_round + 1, attempts = 0, status = 'pending', next_attempt = ${now},
             deadline_at = ${new Date(now.getTime() + 86_400_000)}, round_url = NULL
      WHERE id = ${id} AND status = 'failed'`).pipe(Effect.orDie, Effect.asVoid)

/** Tests share one database: park every event earlier tests left due, so counts are this test's own. */
export const parkOtherEvents = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`UPDATE events SET status = 'failed', next_attempt = NULL, claimed_by = NULL, claimed_until = NULL
      WHERE status IN ('pending', 'delivering')`).pipe(Effect.orDie, Effect.asVoid)
