import { BalanceSyncConfig, type ConfirmationRule, type Network, ScannerLoop } from "@collector/core"
import { PgBalanceLedger, PgComponentStatus, PgDepositBook, PgScanLedger } from "@collector/postgres"
import { eagerScannerLoopSettings } from "@collector/core/testing"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { defaultNodeConfig } from "@collector/tron-node"
import { startSimNode } from "@collector/tron-sim/testing"
import { wallet } from "@collector/tron-sim/testing"
import { SqlClient } from "@effect/sql"
import { Context, Duration, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { networkLayer } from "../NetworkWorker"

/** The simulated node this file's tests drive (manual blocks). */
export class Sim extends Context.Tag("test/Sim")<Sim, Effect.Effect.Success<ReturnType<typeof startSimNode>>>() {}

export const storage = Layer.mergeAll(PgScanLedger.layer, PgDepositBook.layer, PgComponentStatus.layer, PgBalanceLedger.layer)

/** The real adapter against the simulator, the real scanner against a fresh database. */
export const ScanWorld = Layer.unwrapScoped(
  Effect.gen(function*() {
    const sim = yield* startSimNode()
    const network = networkLayer({
      node: defaultNodeConfig("nile", {
        fullNodeUrl: sim.url,
        solidityUrl: sim.url,
        requestTimeout: Duration.seconds(2),
        retries: 0,
        requestsPerSecond: 10_000
      }),
      scanner: { batchBlocks: 10, fetchConcurrency: 4 },
      loop: eagerScannerLoopSettings,
      balances: BalanceSyncConfig.defaults
    })
    return Layer.merge(network, Layer.succeed(Sim, sim))
  })
).pipe(Layer.provideMerge(storage), Layer.provideMerge(TestDatabaseLive))

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
export const seedTenant = (rule: ConfirmationRule, count = 1, network: Network = "nile") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [tenant] = yield* sql<{ id: string }>`
      INSERT INTO tenants (name) VALUES (${`scan-${randomBytes(6).toString("hex")}`}) RETURNING id::text`
    const sealed = Buffer.alloc(16)
    yield* sql`
      INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed, confirmation_rule)
      VALUES (${tenant!.id}, ${network}, 'k', ${sealed}, 'k', ${sealed}, ${rule})`
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

/** One scanner pass, as the worker's loop makes it while holding the lease. */
export const pass = (network: Network = "nile") =>
  Effect.flatMap(ScannerLoop, (loop) => loop.pass(network, { integrityDue: Number.MAX_SAFE_INTEGER, lastWalletId: "0" }))

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
