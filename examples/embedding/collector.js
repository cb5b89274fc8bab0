// The collector embedded in this service: one Effect layer that holds the database, the master
// keyring, the storage, the simulated TRON network "nile", the engine of that network (running on
// its own fiber) and the tenant-side services this service calls (TenantAdmin, Wallets, the
// DepositRepository). `collectorRuntime` turns it into a ManagedRuntime: the bridge between this
// promise-based node:http service and Effect. Only package roots are imported.
import { WebhookEnvelopeSealer } from "@collector/api"
import { defaultEngineSettings, Engine, ScanLedger, TenantAdmin, Wallets } from "@collector/core"
import { SimEnergyProvider } from "@collector/energy"
import { WebhookDelivery } from "@collector/outbound"
import { databaseLayer, PgStorage } from "@collector/postgres"
import { LocalSigner, LocalWalletKeys } from "@collector/tron"
import { defaultNodeConfig, TronNodeChain } from "@collector/tron-node"
import { defaultSimConfig, SimInProcess } from "@collector/tron-sim"
import { AesGcmSecretBox, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Context, Duration, Effect, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"

/** The one network this service uses. */
export const network = "nile"

/** The simulated nile: `{ url, chain, provider, client, layer }` of `SimInProcess.make`; `chain` has the mint and mine controls. */
export class SimulatedNile extends Context.Tag("embedding-example/SimulatedNile")() {}

/** The tenant this service keeps its customers' wallets under: `{ tenant, scope }`, scope = `{ tenantId, network }`. */
export class ShopTenant extends Context.Tag("embedding-example/ShopTenant")() {}

// The simulator's first block when nothing was scanned before (its own default).
const firstGenesis = 1_000_000n

/**
 * The simulated network, answering in this process (no socket): SimInProcess gives an HttpClient
 * that the production node adapter and energy provider talk to unchanged. Its chain lives in
 * memory, so every start is a new chain. On a database that scanned an earlier one (DATABASE_URL,
 * run twice), it starts above every block scanned there and the scanner's old position is
 * forgotten, so the new chain is not taken for a reorganisation of the old one. Blocks come only
 * when `chain.mine` is called (the smoke test does); the simulator has no timer of its own.
 */
const SimulatedNileLive = Layer.effect(
  SimulatedNile,
  Effect.gen(function*() {
    const ledger = yield* ScanLedger
    const previous = yield* ledger.cursor(network)
    const genesisNumber = Option.match(previous, {
      onNone: () => firstGenesis,
      onSome: (cursor) => (cursor.number + 1000n > firstGenesis ? cursor.number + 1000n : firstGenesis)
    })
    if (Option.isSome(previous)) yield* ledger.forget(network)
    return yield* SimInProcess.make(defaultSimConfig(network, { seed: "embedding-example", genesisNumber }))
  })
)

/**
 * The network's adapters, as for a real node: the Chain port (TronNodeChain, the java-tron HTTP
 * adapter) and the EnergyProvider port (the simulator's provider), both over the simulator's
 * in-process HttpClient. For a real node: `TronNodeChain.layer(defaultNodeConfig("nile", {...}))`
 * over `nodeHttpClient()` and a provider from `energyProviderLayer(...)` over `FetchHttpClient.layer`.
 */
const NileAdapters = Layer.unwrapEffect(
  Effect.map(SimulatedNile, (sim) => {
    const node = defaultNodeConfig(network, {
      fullNodeUrl: sim.url,
      solidityUrl: sim.url,
      usdtContract: sim.chain.config.usdtContract,
      // The default (10 requests/s) is a public node's budget; the simulator needs none.
      requestsPerSecond: 10_000
    })
    const provider = SimEnergyProvider.defaultSimProviderConfig(sim.url)
    return Layer.merge(TronNodeChain.layer(node), SimEnergyProvider.layer(provider)).pipe(Layer.provide(sim.layer))
  })
)

/** The engine's settings, built in code: the defaults, with short polls because this chain only moves when told to. */
const engineSettings = {
  ...defaultEngineSettings,
  loop: { ...defaultEngineSettings.loop, pollInterval: Duration.millis(200) },
  balances: { ...defaultEngineSettings.balances, walletsPerSecond: 50 },
  processName: `embedding-example/${process.pid}`
}

/**
 * The engine of nile, running for the life of the runtime: `engine.run` (scanner with
 * confirmations, balance sync, sweeper, automation, webhook notifier) forked into the layer's
 * scope, so disposing the runtime interrupts it. Besides the storage, it needs the network's
 * Chain and EnergyProvider, the Signer (sweeps sign with the sealed wallet keys), and webhook
 * delivery: the sealer of the envelope and the DNS checks + HTTPS transport.
 */
const EngineRunning = Layer.scopedDiscard(
  Effect.gen(function*() {
    const engine = yield* Engine
    yield* Effect.forkScoped(engine.run)
    yield* Effect.logInfo(`engine of ${engine.network} running as ${engine.holder}`)
  })
).pipe(
  Layer.provide(Engine.layer(network, engineSettings)),
  Layer.provide(Layer.mergeAll(
    NileAdapters,
    LocalSigner.layer,
    WebhookEnvelopeSealer.layer,
    WebhookDelivery.layer({ allowPrivateTargets: false })
  ))
)

/** The tenant of this service, found by name or created on the first start (TenantAdmin). */
const ShopTenantLive = (name) =>
  Layer.effect(
    ShopTenant,
    Effect.gen(function*() {
      const admin = yield* TenantAdmin
      const tenant = yield* admin.find(name).pipe(
        Effect.catchTag("TenantNotFound", () =>
          admin.create(name, [network]).pipe(
            // `create` also returns the app secret and webhook key, once: they are for our HTTP API
            // and webhooks, which this service does not use (it calls the services directly).
            Effect.map(({ tenant }) => tenant),
            Effect.tap((tenant) => Effect.logInfo(`created tenant ${tenant.name} (id ${tenant.id})`))
          ))
      )
      return { tenant, scope: { tenantId: tenant.id, network } }
    })
  )

/**
 * Everything: what the service calls on top, what it stands on below. `provideMerge` keeps what
 * a layer provides visible to the runtime too (the routes use Wallets, DepositRepository,
 * ScanLedger, ShopTenant and the simulator's controls).
 *
 * - database: `databaseLayer(settings)`, a SqlClient on the server at `settings.url`, or an
 *   embedded PostgreSQL under `<dataDir>/pg`; migrations run when it is built.
 * - keyring: the master key that seals wallet keys and app secrets (AesGcmSecretBox).
 */
export const collectorLayer = ({ database, masterKey, tenantName }) => {
  const foundation = Layer.mergeAll(PgStorage, AesGcmSecretBox.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(
      databaseLayer(database),
      MasterKeyring.layer({ current: masterKey }),
      NodeEntropy.layer
    ))
  )
  const tenantSide = Layer.mergeAll(
    TenantAdmin.layer,
    Wallets.layer.pipe(Layer.provide(LocalWalletKeys.layer))
  )
  return Layer.mergeAll(EngineRunning, ShopTenantLive(tenantName)).pipe(
    Layer.provideMerge(tenantSide),
    Layer.provideMerge(SimulatedNileLive),
    Layer.provideMerge(foundation)
  )
}

/**
 * The collector as a ManagedRuntime, not built yet: `await runtime.runtime()` builds it (a start
 * that fails, such as a database that cannot start, rejects there). The service calls
 * `runtime.runPromise(effect)` from its handlers, and `runtime.dispose()` at shutdown closes every
 * scope: the engine interrupted, the pool closed, the embedded PostgreSQL stopped, also when it is
 * called while the runtime is still being built.
 */
export const collectorRuntime = (options) =>
  ManagedRuntime.make(
    collectorLayer(options).pipe(Layer.provide(Logger.minimumLogLevel(options.logLevel ?? LogLevel.Info)))
  )
