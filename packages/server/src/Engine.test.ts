import { WebhookEnvelopeSealer } from "@collector/api"
import { Delegation, Engine, Memory, Secrets, Settings, Sweeps, Tenants, Wallets } from "@collector/core"
import { SimEnergyProvider } from "@collector/energy"
import { DnsWebhookTargets, HostTableLookup, HttpsDeliveryTransport } from "@collector/outbound"
import { startTestReceiver, testCaPem } from "@collector/outbound/testing"
import {
  PgAutomationLedger,
  PgBalanceLedger,
  PgDelegationLedger,
  PgDeliveryLedger,
  PgFeeLedger,
  PgDepositBook,
  PgResourceAccounts,
  PgScanLedger,
  PgSettingsRepository,
  PgSweepRepository,
  PgTenantRepository,
  PgWalletRepository
} from "@collector/postgres"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { LocalSigner, LocalWalletKeys } from "@collector/tron"
import { defaultNodeConfig } from "@collector/tron-node"
import { startSimNode, wallet } from "@collector/tron-sim/testing"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Fiber, Layer, Option, Schedule } from "effect"
import { randomBytes } from "node:crypto"
import { eventually } from "../../../test-support/Eventually.js"
import * as WorkerProcess from "./WorkerProcess.js"

class Sim extends Context.Tag("test/Sim")<Sim, Effect.Effect.Success<ReturnType<typeof startSimNode>>>() {}
class Receiver extends Context.Tag("test/Receiver")<Receiver, Effect.Effect.Success<ReturnType<typeof startTestReceiver>>>() {}

/** Short waits, so that `run` gets round every loop within a test. */
const settings: Engine.EngineSettings = {
  ...Engine.defaultEngineSettings,
  scanner: { batchBlocks: 10, fetchConcurrency: 4 },
  loop: { ...Engine.defaultEngineSettings.loop, pollInterval: Duration.millis(50), integrityWindow: 50n, retainedBlocks: 100n },
  balances: { ...Engine.defaultEngineSettings.balances, walletsPerSecond: 1000 },
  sweeper: {
    ...Engine.defaultEngineSettings.sweeper,
    idleInterval: Duration.millis(20),
    settleDelay: Duration.millis(200),
    settleInterval: Duration.millis(100),
    rentalInterval: Duration.millis(100)
  },
  reclaim: { ...Engine.defaultEngineSettings.reclaim, interval: Duration.millis(200) },
  automation: { ...Engine.defaultEngineSettings.automation, tickInterval: Duration.millis(100) },
  dispatcher: { ...Engine.defaultEngineSettings.dispatcher, pollInterval: Duration.millis(20), statusInterval: Duration.millis(100) },
  processName: "engine-test"
}

/** The operator's resource account: 20,000 TRX staked for energy on the simulated node. */
const stakeAccount = wallet(6950)

const keyring = MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })

/**
 * The engine of nile on real implementations: the simulated node over HTTP with its energy
 * provider, PostgreSQL storage, the heartbeat board in memory, the local signer, and webhook
 * delivery over HTTPS to a test receiver. The tenant-side services seed through the same ports.
 */
const world = Layer.unwrapScoped(
  Effect.gen(function*() {
    const sim = yield* startSimNode({ genesisAccounts: [{ address: stakeAccount.address, trx: 5_000_000n, stakedForEnergy: 20_000_000_000n }] })
    const receiver = yield* startTestReceiver()
    const node = defaultNodeConfig("nile", { fullNodeUrl: sim.url, solidityUrl: sim.url, requestTimeout: Duration.seconds(2), retries: 0, requestsPerSecond: 10_000 })
    const provider = { kind: "sim", network: "nile", config: SimEnergyProvider.defaultSimProviderConfig(sim.url, { requestTimeout: Duration.seconds(2) }) } as const
    return Engine.Engine.layer("nile", settings).pipe(
      Layer.provideMerge(WorkerProcess.networkAdapters({ node, energyProvider: provider }, FetchHttpClient.layer)),
      Layer.merge(Layer.mergeAll(Layer.succeed(Sim, sim), Layer.succeed(Receiver, receiver)))
    )
  })
).pipe(
  Layer.provideMerge(Layer.mergeAll(Tenants.TenantAdmin.layer, Wallets.Wallets.layer.pipe(Layer.provide(LocalWalletKeys.layer)), Settings.SettingsService.layer)),
  Layer.provideMerge(Layer.mergeAll(
    Engine.MemoryComponentStatus.layer.pipe(Layer.provide(Memory.MemoryDatabase.layer)),
    LocalSigner.layer,
    WebhookEnvelopeSealer.layer,
    DnsWebhookTargets.layer({ allowPrivateTargets: true, lookup: HostTableLookup.make({ "receiver.test": "127.0.0.1" }) }),
    HttpsDeliveryTransport.layer({ extraCa: testCaPem, allowAnyPort: true, responseTimeoutMs: 2_000 }),
    NodeEntropy.layer
  )),
  Layer.provideMerge(AesGcmSecretBox.layer),
  Layer.provideMerge(NodeEntropy.layer),
  Layer.provideMerge(Layer.mergeAll(
    PgTenantRepository.layer,
    PgWalletRepository.layer,
    PgSettingsRepository.layer,
    PgScanLedger.layer,
    PgDepositBook.layer,
    PgBalanceLedger.layer,
    PgSweepRepository.layer,
    PgAutomationLedger.layer,
    PgDeliveryLedger.layer,
    PgDelegationLedger.layer,
    PgFeeLedger.layer,
    PgResourceAccounts.layer
  )),
  Layer.provideMerge(keyring),
  Layer.provideMerge(TestDatabaseLive)
)

const usdt = (whole: bigint) => whole * 1_000_000n

/**
 * A tenant booking on block_1 with one wallet that holds `amount` USDT once mined, webhooks to
 * the receiver, a collection address outside, and automatic sweeps from 1 USDT with rentals.
 */
const seedScope = (amount: bigint, automation: boolean) =>
  Effect.gen(function*() {
    const admin = yield* Tenants.TenantAdmin
    const settingsService = yield* Settings.SettingsService
    const receiver = yield* Receiver
    const sim = yield* Sim
    const { tenant } = yield* admin.create(`engine-${randomBytes(4).toString("hex")}`, ["nile"])
    yield* admin.setConfirmationRule(tenant.id, "nile", "block_1")
    const scope: Tenants.TenantScope = { tenantId: tenant.id, network: "nile" }
    const created = yield* (yield* Wallets.Wallets).create(scope, "customer")
    yield* settingsService.setWebhook(scope, receiver.url("/hook", "receiver.test"), true)
    yield* settingsService.setCollectionAddress(scope, wallet(7100 + Math.floor(Math.random() * 800)).address)
    yield* settingsService.setAutomation(scope, automationPolicy(automation))
    yield* sim.chain.mintUsdt(created.address, amount)
    return { scope, walletId: created.id, address: created.address }
  }).pipe(Effect.orDie)

const automationPolicy = (enabled: boolean) => ({
  enabled,
  threshold: usdt(1n),
  intervalMinutes: 5,
  maxWalletTrxFee: 15_000_000n,
  maxRentalCost: 21_000_000n,
  rentalAllowed: true
})

const tasksOf = (scope: Tenants.TenantScope) =>
  Effect.flatMap(Sweeps.SweepRepository, (repo) => repo.list(scope, { page: 1, pageSize: 10 })).pipe(Effect.map((page) => page.items.map((view) => view.task)))

layer(world, { excludeTestServices: true, timeout: 120_000 })("Engine", (it) => {
  it.effect("runs one pass of each loop on demand: scan, notify, balance sync, automation, sweep", () =>
    Effect.gen(function*() {
      const engine = yield* Engine.Engine
      const sim = yield* Sim
      const receiver = yield* Receiver
      expect(engine.holder).toMatch(/^engine-test\/[0-9a-f]{8}$/)
      yield* engine.scanOnce
      const seeded = yield* seedScope(usdt(5n), true)
      // The deposit's block, then enough blocks for it to be solidified (balance sync reads there).
      yield* sim.chain.mine(20)

      expect(yield* engine.scanOnce).toBe(true)
      expect(yield* engine.notifyOnce).toBeGreaterThanOrEqual(1)
      const delivered = receiver.receivedAt("/hook")
      expect(delivered.map((r) => r.headers["x-event-type"])).toEqual(["deposit.confirmed"])

      const batch = yield* engine.syncBalancesOnce
      expect(batch.recorded).toBeGreaterThanOrEqual(1)
      const synced = yield* Effect.flatMap(Wallets.WalletRepository, (repo) => repo.find(seeded.scope, seeded.walletId))
      expect(Option.map(synced, (w) => w.balanceUsdt)).toEqual(Option.some(usdt(5n)))

      const rounds = yield* engine.automateOnce
      expect(rounds.filter((r) => r.scope.tenantId === seeded.scope.tenantId)).toMatchObject([{ candidates: 1, created: 1 }])
      const [task] = yield* tasksOf(seeded.scope)
      expect(task).toMatchObject({ origin: "automation", walletId: seeded.walletId, status: "pending", version: 0 })

      expect(yield* engine.sweepOnce).toMatchObject({ claimed: 1, saved: 1 })
      expect((yield* tasksOf(seeded.scope))[0]!.version).toBe(1)
      // Nothing has finished: the fee booking pass (with its ports, PostgreSQL's ledger) books nothing.
      expect(yield* engine.bookFeesOnce).toBe(0)
    }))

  it.effect("run starts every loop: the heartbeats of the scanner, balance sync, sweeper and notifier, and an automatic sweep", () =>
    Effect.gen(function*() {
      const engine = yield* Engine.Engine
      const sim = yield* Sim
      // Automation off until balance sync has read the wallet: a round before that would find nothing and wait out the interval.
      const seeded = yield* seedScope(usdt(3n), false)
      yield* sim.chain.mine(20)
      const running = yield* Effect.fork(engine.run)
      const status = yield* Engine.ComponentStatus
      const components = yield* eventually(
        Effect.map(status.list("nile"), (reports) => reports.map((r) => r.component).sort()),
        (names) => ["balance_sync", "notifier", "scanner", "sweeper"].every((name) => names.includes(name))
      )
      expect(components).toEqual(expect.arrayContaining(["balance_sync", "notifier", "scanner", "sweeper"]))
      const synced = yield* eventually(
        Effect.flatMap(Wallets.WalletRepository, (repo) => repo.find(seeded.scope, seeded.walletId)),
        (found) => Option.exists(found, (w) => w.balanceUsdt === usdt(3n))
      )
      expect(Option.isSome(synced)).toBe(true)
      yield* Effect.flatMap(Settings.SettingsService, (service) => service.setAutomation(seeded.scope, automationPolicy(true)))
      // The automation's round makes the wallet a task, and the sweeper steps it.
      const [task] = yield* eventually(tasksOf(seeded.scope), (tasks) => tasks.length === 1 && tasks[0]!.version > 0)
      expect(task).toMatchObject({ origin: "automation", walletId: seeded.walletId })
      yield* Fiber.interrupt(running)
    }), 120_000)
})

/** The tenant's resource account: the simulator key sealed as a wallet key is, under the engine's master key. */
const setResourceAccount = (scope: Tenants.TenantScope) =>
  Effect.gen(function*() {
    const sealed = yield* (yield* Secrets.SecretBox).seal(stakeAccount.secretKey, Secrets.walletKeyContext(stakeAccount.address))
    const now = new Date(yield* Clock.currentTimeMillis)
    yield* (yield* Delegation.ResourceAccounts).create({ network: "nile", tenantId: scope.tenantId, address: stakeAccount.address, key: Wallets.localKey(sealed), createdAt: now })
  }).pipe(Effect.orDie)

/** What the resource account has lent and not taken back, as the chain's own account reply shows it (SUN). */
const lentOnChain = (simUrl: string) =>
  Effect.promise(() =>
    fetch(`${simUrl}/wallet/getaccount`, { method: "POST", body: JSON.stringify({ address: stakeAccount.address, visible: true }) })
      .then((r) => r.json() as Promise<{ account_resource?: { delegated_frozenV2_balance_for_energy?: number } }>)
  ).pipe(Effect.map((account) => BigInt(account.account_resource?.delegated_frozenV2_balance_for_energy ?? 0)))

layer(world, { excludeTestServices: true, timeout: 120_000 })("Engine with the own stake", (it) => {
  it.effect("a wallet that cannot burn is swept on lent energy, and the engine's reclaim loop takes the stake back", () =>
    Effect.gen(function*() {
      const engine = yield* Engine.Engine
      const sim = yield* Sim
      const seeded = yield* seedScope(usdt(4n), false)
      yield* setResourceAccount(seeded.scope)
      // On chain with one SUN: it cannot burn for its energy, and rental is off, so only the stake pays.
      yield* sim.chain.activate(seeded.address, 1n).pipe(Effect.orDie)
      yield* sim.chain.mine(20)
      const mining = yield* Effect.fork(Effect.repeat(sim.chain.mine(1), Schedule.spaced(Duration.millis(100))))
      const running = yield* Effect.fork(engine.run)
      // Automation off until balance sync has read the wallet: a round before that would find nothing and wait out the interval.
      yield* eventually(
        Effect.flatMap(Wallets.WalletRepository, (repo) => repo.find(seeded.scope, seeded.walletId)),
        (found) => Option.exists(found, (w) => w.balanceUsdt === usdt(4n)),
        30_000
      )
      yield* Effect.flatMap(Settings.SettingsService, (service) => service.setAutomation(seeded.scope, { ...automationPolicy(true), rentalAllowed: false }))
      const [task] = yield* eventually(tasksOf(seeded.scope), (tasks) => tasks.length === 1 && tasks[0]!.status === "succeeded", 30_000)
      expect(task).toMatchObject({ energyPath: "delegated", feeSource: "resources" })
      // 64,285 energy to an address holding no USDT is 130,285; either way the stake lent was the whole TRX for it, and it comes back.
      const row = yield* eventually(Effect.flatMap(Delegation.DelegationLedger, (ledger) => ledger.find(task!.id)), (found) => Option.exists(found, (d) => d.state === "reclaimed"), 30_000)
      expect(Option.isSome(row)).toBe(true)
      expect(yield* lentOnChain(sim.url)).toBe(0n)
      yield* Fiber.interrupt(running)
      yield* Fiber.interrupt(mining)
    }), 150_000)
})
