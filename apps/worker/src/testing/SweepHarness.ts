import { Engine, type Kernel, Secrets, Sweeps, type Tenants, type Wallets } from "@collector/core"
import type { EnergyProviderSettings } from "@collector/energy"
import { sentBy, wallet } from "@collector/tron-sim/testing"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { engineWorld, masterKeyBytes, Sim } from "./EngineWorld.js"

export { masterKeyBytes, noProvider, Sim } from "./EngineWorld.js"

/**
 * What a worker process of a sweep test needs: this database, this node, the scan from `startBlock`,
 * the harness's master key, and a crash point (`SWEEP_CRASH_AT`) if one is given.
 */
export const sweepWorkerEnv = (databaseUrl: string, nodeUrl: string, startBlock: bigint, crashAt?: string) => ({
  DATABASE_URL: databaseUrl,
  MASTER_KEY: masterKeyBytes.toString("base64"),
  TRON_NILE_NODE_URL: nodeUrl,
  TRON_REQUESTS_PER_SECOND: "2000",
  WORKER_NETWORKS: "nile",
  SCAN_START_BLOCK: startBlock.toString(),
  LOG_LEVEL: "WARN",
  ...(crashAt === undefined ? {} : { SWEEP_CRASH_AT: crashAt })
})

const box = AesGcmSecretBox.make(MasterKeyring.make({ current: MasterKey.unsafeMake(masterKeyBytes) }), NodeEntropy.make)

/** The real engine over a fresh database and the simulator, with the energy provider `provider` gives for the simulator's URL. */
export const sweepWorld = (provider: (simUrl: string) => EnergyProviderSettings) => engineWorld(provider)

export interface SweepWallet {
  readonly walletId: Kernel.WalletId
  readonly address: string
  /** The simulator key behind the address; -1 for a key made in a PKCS#11 token (no one knows it). */
  readonly index: number
}

export interface SweepScope extends Tenants.TenantScope {
  readonly wallets: ReadonlyArray<SweepWallet>
  /** The collection address (an external address with a known key). */
  readonly destination: string
}

let nextKey = 5000 + Math.floor(Math.random() * 1000) * 100

export interface PolicyChanges {
  readonly maxWalletTrxFee?: bigint
  readonly maxRentalCost?: bigint
  readonly rentalAllowed?: boolean
}

/**
 * A tenant on nile with `count` wallets whose real keys are sealed under the test master key, and
 * its collection address. With `tokenKeys` (a PKCS#11 store), each wallet's key is made in the
 * token instead and its row holds only the label, as `KEY_STORE=pkcs11` makes wallets.
 */
export const seedScope = (count: number, policy: PolicyChanges = {}, network: Kernel.Network = "nile", tokenKeys?: Wallets.WalletKeys["Type"]) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [tenant] = yield* sql<{ id: string }>`
      INSERT INTO tenants (name) VALUES (${`sweep-${randomBytes(6).toString("hex")}`}) RETURNING id::text`
    // Sealed for real: with token wallets (no sealed wallet key) this is what a worker process's
    // master key check finds it can open.
    const webhookKey = yield* box.seal(new Uint8Array(randomBytes(32)), Secrets.webhookKeyContext(tenant!.id as Kernel.TenantId, network))
    yield* sql`
      INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed)
      VALUES (${tenant!.id}, ${network}, ${webhookKey.keyId}, ${Buffer.alloc(16)}, ${webhookKey.keyId}, ${webhookKey.blob})`
    const destination = wallet(nextKey++).address
    yield* sql`
      INSERT INTO tenant_settings (tenant_id, network, collection_address, collection_updated_at, max_wallet_trx_fee, max_rental_cost, rental_allowed,
                                   automation_updated_at)
      VALUES (${tenant!.id}, ${network}, ${destination}, now(), ${(policy.maxWalletTrxFee ?? 15_000_000n).toString()},
              ${(policy.maxRentalCost ?? 20_000_000n).toString()}, ${policy.rentalAllowed ?? true}, now())`
    const wallets: Array<SweepWallet> = []
    for (let i = 0; i < count && tokenKeys !== undefined; i++) {
      // As the wallet use case does: the ID first, so that the token labels the key by it.
      const [drawn] = yield* sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('wallets', 'id'))::text AS id`
      const generated = yield* Effect.orDie(tokenKeys.generate(drawn!.id as Kernel.WalletId))
      const label = generated.key.store === "pkcs11" ? generated.key.label : yield* Effect.dieMessage("expected a token key")
      const [row] = yield* sql<{ id: string }>`
        WITH w AS (
          INSERT INTO wallets (id, tenant_id, network, address, custom_id) VALUES (${drawn!.id}, ${tenant!.id}, ${network}, ${generated.address}, ${label})
          RETURNING id
        ), k AS (INSERT INTO wallet_keys (wallet_id, store, key_label) SELECT id, 'pkcs11', ${label} FROM w)
        SELECT id::text FROM w`
      wallets.push({ walletId: row!.id as Kernel.WalletId, address: generated.address, index: -1 })
    }
    for (let i = 0; i < count && tokenKeys === undefined; i++) {
      const index = nextKey++
      const key = wallet(index)
      const sealed = yield* box.seal(key.secretKey, Secrets.walletKeyContext(key.address))
      const [row] = yield* sql<{ id: string }>`
        WITH w AS (
          INSERT INTO wallets (tenant_id, network, address, custom_id) VALUES (${tenant!.id}, ${network}, ${key.address}, ${`w-${index}`})
          RETURNING id
        ), k AS (INSERT INTO wallet_keys (wallet_id, key_id, sealed_key) SELECT id, ${sealed.keyId}, ${sealed.blob} FROM w)
        SELECT id::text FROM w`
      wallets.push({ walletId: row!.id as Kernel.WalletId, address: key.address, index })
    }
    return { tenantId: tenant!.id as Kernel.TenantId, network, wallets, destination } satisfies SweepScope
  }).pipe(Effect.orDie)

/** `key` as the tenant's resource account on the scope's network, its key sealed under the harness's master key as a wallet key is. */
export const seedResourceAccount = (scope: SweepScope, key: { readonly address: string; readonly secretKey: Uint8Array }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const sealed = yield* box.seal(key.secretKey, Secrets.walletKeyContext(key.address))
    yield* sql`
      INSERT INTO resource_accounts (network, tenant_id, address, store, key_id, sealed_key, created_at)
      VALUES (${scope.network}, ${scope.tenantId}, ${key.address}, 'local', ${sealed.keyId}, ${sealed.blob}, now())`
  }).pipe(Effect.orDie)

/** A task as the create operation makes it, inserted directly. */
export const createTask = (scope: SweepScope, w: SweepWallet, amount: bigint | null = null) =>
  Effect.gen(function*() {
    const repo = yield* Sweeps.SweepRepository
    const now = new Date(yield* Clock.currentTimeMillis)
    const draft: Sweeps.SweepDraft = {
      walletId: w.walletId,
      address: w.address,
      mode: amount === null ? "all" : "fixed",
      requestedAmount: amount,
      minimumAmount: null,
      destination: scope.destination,
      origin: "manual",
      maxWalletTrxFee: 15_000_000n,
      prepareBy: new Date(now.getTime() + 30 * 86_400_000)
    }
    const [task] = yield* repo.insert(scope, [draft], now)
    return task!
  })

export const taskOf = (scope: SweepScope, id: Sweeps.SweepTaskId) =>
  Effect.flatMap(Sweeps.SweepRepository, (repo) => repo.find(scope, id)).pipe(Effect.map((view) => Option.getOrThrow(view).task))

/** One sweeper pass of the engine. */
export const pass = () => Effect.flatMap(Engine.Engine, (engine) => engine.sweepOnce)

/**
 * Passes and blocks until the task is terminal (or `limit` rounds): each round one pass, then
 * one block, so a broadcast lands and solidifies as on a real chain.
 */
export const runUntilDone = (scope: SweepScope, id: Sweeps.SweepTaskId, limit = 60) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const seen: Array<string> = []
    for (let round = 0; round < limit; round++) {
      yield* pass()
      const task = yield* taskOf(scope, id)
      const state = `${task.status}/${task.stage}`
      if (seen[seen.length - 1] !== state) seen.push(state)
      if (["succeeded", "failed", "cancelled"].includes(task.status)) return { task, seen }
      yield* sim.chain.mine(1)
    }
    const task = yield* taskOf(scope, id)
    return { task, seen }
  })

/** Transactions the wallet sent that are on the chain now (its key signed them), in block order. */
export const sentFrom = (address: string) => Effect.flatMap(Sim, (sim) => sentBy(sim.chain, address))

export const reportOf = Effect.flatMap(Engine.ComponentStatus, (status) => status.list("nile"))

export type SweepTask = Sweeps.SweepTask
