import { WebhookEnvelopeSealer } from "@collector/api"
import { Chain, Deposits, Energy, Engine, Kernel, Memory, Notifications, Settings, Tenants, Wallets } from "@collector/core"
import { eagerScannerLoopSettings, eagerSweeperSettings, type ScriptedReply, TestDeliveryTransport } from "@collector/core/test-doubles"
import { receiveWebhook, type WebhookEvent, type WebhookRejected } from "@collector/sdk"
import { LocalSigner, LocalWalletKeys } from "@collector/tron"
import { defaultNodeConfig, TronNodeChain } from "@collector/tron-node"
import { defaultSimConfig, type SimControlError, SimInProcess, type SimulatedChain } from "@collector/tron-sim"
import { AesGcmSecretBox, MasterKey, MasterKeyring } from "@collector/vault"
import { Context, Duration, Effect, Layer, Redacted } from "effect"
import type { DeliveredWebhook } from "./DeliveredWebhook.js"
import * as ReceiverTargets from "./ReceiverTargets.js"
import type { TenantOptions, TestTenant, TestWallet } from "./TestTenant.js"
import * as TestTime from "./TestTime.js"

/** The network a kit serves: the simulator runs test networks only. */
export const testNetwork: Kernel.Network = "nile"

/** How a kit is set up; every field has a default, so `TestCollector.layer()` is a whole service. */
export interface TestCollectorOptions {
  /**
   * Seeds the simulated chain and every key and nonce the service draws: the same seed gives
   * the same wallet addresses, txids, IDs and sealed webhook bodies (under a TestClock).
   */
  readonly seed?: string
  /** Where a TestClock still at time 0 is set before anything happens (Clock millis). */
  readonly startTime?: number
  /** The address every webhook host name resolves to (it must be public by the production rules). */
  readonly receiverAddress?: string
}

export const defaultSeed = "testkit"

/** The master key the kit's wallet keys and webhook keys are sealed under: fixed, it is a test's. */
export const testMasterKey: Uint8Array = new Uint8Array(32).fill(7)

/** One block produced by `mine` or by a reorganisation. */
export interface MinedBlock {
  readonly number: bigint
  /** The block ID, as deposits report it in `block_hash`. */
  readonly hash: string
  readonly time: Date
}

/** What `runUntilIdle` did. */
export interface RunSummary {
  /** Scanner passes until the head was reached (each stores blocks, books, reverts). */
  readonly scanPasses: number
  /** Webhook events claimed and sent (an event is sent once per attempt). */
  readonly notified: number
}

/**
 * Why a scanner pass failed: the node did not answer or refused (a fault the test put on the
 * chain), or the chain changed under the pass. The next pass starts again from what is stored.
 */
export type ScanError = Effect.Effect.Error<Engine.Engine["Type"]["scanOnce"]>

/** A scan or delivery loop that has not come to rest after this many passes is a bug, not a long run. */
const maxPasses = 1_000

/**
 * The engine's settings in a kit: the first scan starts at the simulator's first block (so a
 * transfer made before the first run is found), the scanner works to the head in one pass, and
 * the sweeper waits for nothing, so a test moves work on by passes and blocks alone.
 */
export const testEngineSettings = (startBlock: bigint): Engine.EngineSettings => ({
  ...Engine.defaultEngineSettings,
  scanner: { ...Engine.defaultEngineSettings.scanner, startBlock },
  loop: eagerScannerLoopSettings,
  sweeper: eagerSweeperSettings,
  processName: "testkit"
})

/** The whole collector of one network in a test, driven step by step. */
export interface TestCollectorService {
  readonly network: Kernel.Network
  /** A tenant with an app credential on the kit's network, set up as `options` say. */
  readonly createTenant: (options?: TenantOptions) => Effect.Effect<TestTenant, Settings.SettingRejected>
  readonly setConfirmationRule: (tenant: TestTenant, rule: Settings.ConfirmationRule) => Effect.Effect<void>
  /** Checks `url` as the API does (production rules) and stores it; `enabled` true by default. */
  readonly setWebhook: (tenant: TestTenant, url: string, enabled?: boolean) => Effect.Effect<void, Settings.SettingRejected>
  /** A wallet of `tenant`: its key generated and sealed by the service, its address to pay. */
  readonly createWallet: (tenant: TestTenant, customId?: string) => Effect.Effect<TestWallet>
  /** The issuer mints `amount` USDT base units (6 decimals) to `address`; the txid. It lands with the next block. */
  readonly mint: (address: string, amount: bigint) => Effect.Effect<string, SimControlError>
  /** Produces `count` blocks (1 by default), one block interval apart: a TestClock is moved on for each. */
  readonly mine: (count?: number) => Effect.Effect<ReadonlyArray<MinedBlock>>
  /**
   * A fork switch: the last `depth` blocks are replaced by `depth + 1` others. Their transactions
   * land again in the new blocks unless `drop` names their txid. Only unsolidified blocks (up to
   * 19) can be replaced.
   */
  readonly reorg: (depth: number, drop?: ReadonlyArray<string>) => Effect.Effect<void, SimControlError>
  /**
   * Runs the engine until it has nothing left to do now: scanner passes (store blocks, book and
   * revert deposits) until the head is reached, then notifier passes until no event is due.
   */
  readonly runUntilIdle: Effect.Effect<RunSummary, ScanError>
  /** The tenant's deposits as the API returns them (the 24-field record), oldest first. */
  readonly deposits: (tenant: TestTenant) => Effect.Effect<ReadonlyArray<Deposits.DepositRecord>>
  /** Every webhook request delivered so far, in arrival order; only `tenant`'s when given. */
  readonly webhooks: (tenant?: TestTenant) => Effect.Effect<ReadonlyArray<DeliveredWebhook>>
  /** Verifies and opens one delivery with the tenant's webhook key, as a receiver does (`receiveWebhook` of @collector/sdk). */
  readonly openWebhook: (tenant: TestTenant, webhook: DeliveredWebhook) => Effect.Effect<WebhookEvent, WebhookRejected>
  /** Every delivery to `tenant`, opened, in arrival order (a retried event appears once per attempt). */
  readonly webhookEvents: (tenant: TestTenant) => Effect.Effect<ReadonlyArray<WebhookEvent>, WebhookRejected>
  /** How the tenants' receivers answer from now on (the contract's acknowledgement by default); only `url` when given. */
  readonly answerWebhooks: (reply: ScriptedReply, url?: string) => Effect.Effect<void>
  /** The engine itself, for a step `runUntilIdle` does not take (`syncBalancesOnce`, `sweepOnce`, ...). */
  readonly engine: Engine.Engine["Type"]
  /** The simulated chain itself, for what the kit does not wrap (transfers, TRX, node outages, ...). */
  readonly chain: SimulatedChain
}

/**
 * The service's ports as the worker and the API assemble them, with the in-process choices of a
 * test: memory storage, the simulated network behind the production node adapter, no energy
 * provider, the local signer and key maker, the vault's secret box under the test master key,
 * seeded entropy, the production webhook sealer and URL checks, and an in-memory receiver.
 */
const services = (options: TestCollectorOptions, chain: Chain.Chain["Type"], startBlock: bigint) => {
  const keyring = MasterKeyring.layer({ current: MasterKey.unsafeMake(testMasterKey) })
  const networkPorts = Layer.succeedContext(Context.make(Chain.Chain, chain).pipe(Context.add(Energy.EnergyProvider, Energy.noEnergyProvider(testNetwork))))
  const ports = Layer.mergeAll(
    Memory.MemoryStorage,
    networkPorts,
    LocalSigner.layer,
    LocalWalletKeys.layer,
    WebhookEnvelopeSealer.layer,
    ReceiverTargets.layer(options.receiverAddress),
    TestDeliveryTransport.layer()
  ).pipe(
    Layer.provideMerge(AesGcmSecretBox.layer),
    Layer.provideMerge(Layer.merge(Kernel.SeededEntropy.layer(`${options.seed ?? defaultSeed}/entropy`), keyring))
  )
  const tenantSide = Layer.mergeAll(Tenants.TenantAdmin.layer, Wallets.Wallets.layer, Settings.SettingsService.layer, Notifications.Notifications.layer)
  return Layer.merge(Engine.Engine.layer(testNetwork, testEngineSettings(startBlock)), tenantSide).pipe(Layer.provideMerge(ports))
}

const make = (chain: SimulatedChain) =>
  Effect.gen(function*() {
    const engine = yield* Engine.Engine
    const admin = yield* Tenants.TenantAdmin
    const wallets = yield* Wallets.Wallets
    const settings = yield* Settings.SettingsService
    const depositRepository = yield* Deposits.DepositRepository
    const receiver = yield* TestDeliveryTransport
    const blockMillis = chain.config.blockIntervalMs
    // Default names are numbered per kit, so they are the same in every run.
    let tenantCount = 0
    let walletCount = 0

    const setConfirmationRule = (tenant: TestTenant, rule: Settings.ConfirmationRule) =>
      admin.setConfirmationRule(tenant.id, tenant.network, rule).pipe(Effect.orDie)

    const setWebhook = (tenant: TestTenant, url: string, enabled = true) =>
      Effect.zipRight(settings.checkWebhook(url, enabled), settings.setWebhook(tenant.scope, url, enabled))

    const createTenant = (options: TenantOptions = {}) =>
      Effect.gen(function*() {
        const name = options.name ?? `tenant-${++tenantCount}`
        const { credentials, tenant } = yield* admin.create(name, [testNetwork]).pipe(Effect.orDie)
        const credential = credentials[0]!
        const created: TestTenant = {
          id: tenant.id,
          name,
          network: testNetwork,
          scope: { tenantId: tenant.id, network: testNetwork },
          appId: credential.appId,
          appSecret: Redacted.value(credential.appSecret),
          webhookKey: Redacted.value(credential.webhookKey)
        }
        if (options.confirmationRule !== undefined) yield* setConfirmationRule(created, options.confirmationRule)
        if (options.webhookUrl !== undefined) yield* setWebhook(created, options.webhookUrl)
        return created
      })

    const createWallet = (tenant: TestTenant, customId?: string) =>
      Effect.map(
        wallets.create(tenant.scope, customId ?? `wallet-${++walletCount}`).pipe(Effect.orDie),
        (wallet): TestWallet => ({ id: wallet.id, address: wallet.address, customId: wallet.customId })
      )

    const mine = (count = 1) =>
      Effect.gen(function*() {
        const blocks: Array<MinedBlock> = []
        for (let i = 0; i < count; i++) {
          yield* TestTime.advance(blockMillis)
          for (const block of yield* chain.mine(1)) {
            blocks.push({ number: block.number, hash: block.blockId, time: new Date(block.timestamp) })
          }
        }
        return blocks
      })

    // A reorganisation makes one block more than it replaces: one more block interval passes.
    const reorg = (depth: number, drop: ReadonlyArray<string> = []) =>
      Effect.zipRight(TestTime.advance(blockMillis), chain.reorg(depth, drop))

    const runUntilIdle = Effect.gen(function*() {
      let scanPasses = 0
      while (!(yield* engine.scanOnce)) {
        if (++scanPasses >= maxPasses) return yield* Effect.dieMessage(`the scanner did not reach the head in ${maxPasses} passes`)
      }
      scanPasses++
      let notified = 0
      for (let passes = 0; ; passes++) {
        if (passes >= maxPasses) return yield* Effect.dieMessage(`webhook events were still due after ${maxPasses} notifier passes`)
        const handled = yield* engine.notifyOnce
        if (handled === 0) break
        notified += handled
      }
      return { scanPasses, notified } satisfies RunSummary
    })

    const deposits = (tenant: TestTenant) =>
      Effect.gen(function*() {
        const found: Array<Deposits.Deposit> = []
        for (let page = 1; ; page++) {
          const { items, total } = yield* depositRepository.list(tenant.scope, { page, pageSize: 100, address: "" })
          found.push(...items)
          if (items.length === 0 || found.length >= total) break
        }
        return found.sort((a, b) => Kernel.compareIds(a.id, b.id)).map(Deposits.depositRecord)
      })

    const webhooks = (tenant?: TestTenant) =>
      Effect.sync(() =>
        receiver.received()
          .filter((request) => tenant === undefined || request.headers["X-App-Id"] === tenant.appId)
          .map(({ at, body, headers, url }): DeliveredWebhook => ({ url, headers, body, at }))
      )

    const openWebhook = (tenant: TestTenant, webhook: DeliveredWebhook) =>
      receiveWebhook({ body: webhook.body, headers: webhook.headers, webhookKey: tenant.webhookKey, appId: tenant.appId })

    return TestCollector.of({
      network: testNetwork,
      createTenant,
      setConfirmationRule,
      setWebhook,
      createWallet,
      mint: (address, amount) => chain.mintUsdt(address, amount),
      mine,
      reorg,
      runUntilIdle,
      deposits,
      webhooks,
      openWebhook,
      webhookEvents: (tenant) => Effect.flatMap(webhooks(tenant), (delivered) => Effect.forEach(delivered, (webhook) => openWebhook(tenant, webhook))),
      answerWebhooks: (reply, url) => Effect.sync(() => receiver.answer(reply, url)),
      engine,
      chain
    })
  })

/**
 * A tenant's whole collector in one process, for the tenant's own tests: the real engine of
 * @collector/core on its memory storage, the simulated TRON network answering the production
 * node adapter in process, and webhooks sealed by the service's sealer and captured as the
 * tenant's receiver would get them. No database server, no socket, no timer: nothing happens
 * until the test says so (`mint`, `mine`, `reorg`, `runUntilIdle`), and everything runs on the
 * test's Clock, so under a TestClock (`it.effect`) a test gives the same IDs, txids and webhook
 * bodies every time. Each build of the layer is a new, empty world.
 */
export class TestCollector extends Context.Tag("@collector/testkit/TestCollector")<TestCollector, TestCollectorService>() {
  static readonly layer = (options: TestCollectorOptions = {}): Layer.Layer<TestCollector> =>
    Layer.unwrapEffect(
      Effect.gen(function*() {
        yield* TestTime.startAt(options.startTime ?? TestTime.defaultStartTime)
        const sim = yield* SimInProcess.make(defaultSimConfig(testNetwork, { seed: `${options.seed ?? defaultSeed}/chain` })).pipe(Effect.orDie)
        // The production adapter, speaking java-tron's HTTP API to the simulator in process. No
        // retries and no rate limit to wait for: a reply the simulator refuses is a failed pass.
        const node = defaultNodeConfig(testNetwork, {
          fullNodeUrl: sim.url,
          solidityUrl: sim.url,
          usdtContract: sim.chain.config.usdtContract,
          requestTimeout: Duration.seconds(10),
          retries: 0,
          requestsPerSecond: 1_000_000
        })
        const chain = yield* TronNodeChain.make(node).pipe(Effect.provide(sim.layer))
        return Layer.effect(TestCollector, make(sim.chain)).pipe(Layer.provide(services(options, chain, sim.chain.config.genesisNumber)))
      })
    )
}
