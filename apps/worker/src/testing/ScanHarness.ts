import { Engine, type Kernel, Secrets, type Settings } from "@collector/core"
import { wallet } from "@collector/tron-sim/testing"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { engineWorld, masterKeyBytes, noProvider } from "./EngineWorld.js"

export { Sim } from "./EngineWorld.js"

/** The real engine against the simulator, over a fresh database. */
export const ScanWorld = engineWorld(noProvider)

export interface SeededWallet {
  readonly tenantId: string
  readonly walletId: string
  readonly address: string
  readonly customId: string
  /** The simulator key behind the address, to send from it. */
  readonly index: number
}

let nextKey = 1000

/** A tenant with one app on `network` under `rule`, and `count` wallets with simulator keys. */
export const seedTenant = (rule: Settings.ConfirmationRule, count = 1, network: Kernel.Network = "nile") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [tenant] = yield* sql<{ id: string }>`
      INSERT INTO tenants (name) VALUES (${`scan-${randomBytes(6).toString("hex")}`}) RETURNING id::text`
    // Sealed for real under the engine's master key: a worker process started over this database
    // checks that its MASTER_KEY opens what is stored before it runs.
    const box = AesGcmSecretBox.make(MasterKeyring.make({ current: MasterKey.unsafeMake(masterKeyBytes) }), NodeEntropy.make)
    const sealed = yield* box.seal(new Uint8Array(randomBytes(32)), Secrets.webhookKeyContext(tenant!.id as Kernel.TenantId, network))
    yield* sql`
      INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed, confirmation_rule)
      VALUES (${tenant!.id}, ${network}, ${sealed.keyId}, ${Buffer.alloc(16)}, ${sealed.keyId}, ${sealed.blob}, ${rule})`
    const wallets: Array<SeededWallet> = []
    for (let i = 0; i < count; i++) {
      const index = nextKey++
      const address = wallet(index).address
      const customId = `c-${index}`
      const [row] = yield* sql<{ id: string }>`
        INSERT INTO wallets (tenant_id, network, address, custom_id) VALUES (${tenant!.id}, ${network}, ${address}, ${customId})
        RETURNING id::text`
      wallets.push({ tenantId: tenant!.id, walletId: row!.id, address, customId, index })
    }
    return wallets
  }).pipe(Effect.orDie)

/** One scanner pass of the engine. */
export const pass = () => Effect.flatMap(Engine.Engine, (engine) => engine.scanOnce)

export interface DepositRow {
  readonly id: string
  readonly event_id: string
  readonly status: string
  readonly revision: number
  readonly wallet_id: string
  readonly txid: string
  readonly log_index: number
  readonly amount: string
  readonly block_number: string
  readonly block_hash: string
  readonly confirmation_type: string
  readonly confirmations: number | null
}

export const depositsOf = (tenantId: string) =>
  SqlClient.SqlClient.pipe(
    Effect.flatMap((sql) =>
      sql<DepositRow>`
        SELECT id::text, event_id::text, status, revision, wallet_id::text, txid, log_index, amount::text, block_number::text,
               block_hash, confirmation_type, confirmations
        FROM deposits d WHERE tenant_id = ${tenantId} ORDER BY d.id`
    ),
    Effect.orDie
  )

export interface EventRow {
  readonly id: string
  readonly event_type: string
  readonly deposit_id: string
  readonly revision: number
  readonly payload: string
  readonly status: string
}

export const eventsOf = (tenantId: string) =>
  SqlClient.SqlClient.pipe(
    Effect.flatMap((sql) =>
      sql<EventRow>`
        SELECT id::text, event_type, deposit_id::text, revision, payload, status FROM events
        WHERE tenant_id = ${tenantId} ORDER BY events.id`
    ),
    Effect.orDie
  )
