import { WebhookEnvelopeSealer } from "@collector/api"
import { Chain, Deposits, Energy, Engine, type Kernel, Memory, type Notifications, Retention, Scanning, type Storage, Tenants, Wallets, type Webhook } from "@collector/core"
import { energyProviderConfig, energyProviderLayer, type EnergyProviderSettings } from "@collector/energy"
import { WebhookDelivery, webhookDeliveryConfig } from "@collector/outbound"
import { databaseConfig, databaseLayer, MigrationsLive, PgStorage } from "@collector/postgres"
import { failoverNodeChain, nodeConfigs, nodeFailoverConfig, nodeHttpClient } from "@collector/tron-node"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Cause, ConfigProvider, Context, Effect, Exit, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { hostname } from "node:os"
import {
  CustomIdInput,
  decodeArguments,
  NetworksInput,
  PagingInput,
  TenantNameInput,
  TenantScopeInput,
  WalletIdInput
} from "./CollectorInput.js"
import * as KeyStore from "./KeyStore.js"
import * as MasterKeyGuard from "./MasterKeyGuard.js"

/** A `SqlClient` layer: what the migrations (and the PostgreSQL storage) need. */
type SqlClientLayer = Layer.Layer<Layer.Layer.Context<typeof MigrationsLive>, unknown>

/**
 * Where the collector keeps its records. `embedded`: a PostgreSQL 15 started under
 * `<dataDir>/pg` on `127.0.0.1:<port>` and stopped with the collector; `url`: your server;
 * `memory`: nothing survives the process (tests, demos; never for money); `layer`: a `SqlClient`
 * of yours (migrated here before use). Absent fields take the reference server's defaults.
 */
export type DatabasePart =
  | { readonly kind: "embedded"; readonly dataDir?: string; readonly port?: number; readonly poolSize?: number; readonly startTimeoutMs?: number }
  | { readonly kind: "url"; readonly url: string | Redacted.Redacted<string>; readonly poolSize?: number; readonly startTimeoutMs?: number }
  | { readonly kind: "memory" }
  | { readonly kind: "layer"; readonly layer: SqlClientLayer }

/** One TRON network the engine watches and the wallets live on. */
export interface NetworkPart {
  readonly network: Kernel.Network
  /** Node URLs in order of preference (each serves `/wallet` and `/walletsolidity`); default: TronGrid's. */
  readonly nodeUrls?: ReadonlyArray<string>
  /** Sent as `TRON-PRO-API-KEY` to every node. */
  readonly apiKey?: string
  /** The network's USDT contract; default: Tether's on that network. */
  readonly usdtContract?: string
  /** The node budget in requests per second per host; default 10 (a public node's). */
  readonly requestsPerSecond?: number
  /** Energy rental for sweeps; default as the reference server: none, except the simulator on nile without `nodeUrls`. */
  readonly energyProvider?: EnergyProviderSettings
  /** Deposits below this many base units are not booked; default none. */
  readonly depositMinimum?: bigint
  /** The HTTP client the node and the provider are spoken to with (e.g. the in-process simulator's); default node:http / fetch. */
  readonly http?: Layer.Layer<HttpClient.HttpClient>
  /** Replaces the node and the provider altogether. */
  readonly layer?: Layer.Layer<Chain.Chain | Energy.EnergyProvider, unknown>
}

/**
 * The keys: the master key (32 bytes) seals every wallet key, app secret and webhook key; lose it
 * and the funds on the wallets cannot be swept. `previousMasterKeys` still open what they sealed
 * (rotation). Wallet keys are made and kept `local`ly (sealed in the database) unless `pkcs11`
 * gives the token's `PKCS11_*` settings (docs/keys.md), or `layer` brings a key store of yours.
 */
export interface KeyStorePart {
  readonly masterKey: Uint8Array
  readonly previousMasterKeys?: ReadonlyArray<Uint8Array>
  readonly pkcs11?: Readonly<Record<string, string>>
  readonly layer?: Layer.Layer<KeyStore.KeyStore, unknown, KeyStore.KeyStoreNeeds>
}

/** Webhook delivery: targets must resolve to public addresses on 443 unless `allowPrivateTargets`; `extraCa` (PEM) trusted besides Node's CAs. */
export interface OutboundPart {
  readonly allowPrivateTargets?: boolean
  readonly extraCa?: string
  /** Replaces the URL checks and the HTTPS transport. */
  readonly layer?: Layer.Layer<Webhook.WebhookTargets | Notifications.DeliveryTransport>
}

export interface CollectorSettings {
  readonly database: DatabasePart
  readonly networks: ReadonlyArray<NetworkPart>
  readonly keyStore: KeyStorePart
  readonly outbound?: OutboundPart
  /** The engine (scanner, balance sync, sweeper, automation, notifier) on every network: on by default; `false` for a process that only serves; an object overrides settings. */
  readonly engine?: boolean | Partial<Engine.EngineSettings>
}

/**
 * The reference server's defaults: its settings read with no variable set, through the same
 * config modules, so that an absent field here means what an absent variable means there.
 */
const referenceDefaults = <A, E>(read: Effect.Effect<A, E>) => Effect.withConfigProvider(read, ConfigProvider.fromMap(new Map()))

/** Every storage port and the keyring, on the database chosen. */
const storageLayer = (database: DatabasePart, keyring: Layer.Layer<MasterKeyring>): Effect.Effect<Layer.Layer<Storage.StoragePorts | MasterKeyring, unknown>, unknown> =>
  Effect.gen(function*() {
    if (database.kind === "memory") return Layer.merge(Memory.MemoryStorage, keyring)
    if (database.kind === "layer") {
      const sql = MigrationsLive.pipe(Layer.provideMerge(database.layer))
      return PgStorage.pipe(Layer.provideMerge(MasterKeyGuard.layer), Layer.provideMerge(sql), Layer.provideMerge(keyring))
    }
    const defaults = yield* referenceDefaults(databaseConfig)
    const settings = database.kind === "url"
      ? {
        ...defaults,
        url: Option.some(typeof database.url === "string" ? Redacted.make(database.url) : database.url),
        poolSize: database.poolSize ?? defaults.poolSize,
        startTimeoutMs: database.startTimeoutMs ?? defaults.startTimeoutMs
      }
      : {
        ...defaults,
        dataDir: database.dataDir ?? defaults.dataDir,
        embeddedPort: database.port ?? defaults.embeddedPort,
        poolSize: database.poolSize ?? defaults.poolSize,
        startTimeoutMs: database.startTimeoutMs ?? defaults.startTimeoutMs
      }
    // A wrong master key stops the start before anything is sealed or opened (MasterKeyGuard).
    return PgStorage.pipe(Layer.provideMerge(MasterKeyGuard.layer), Layer.provideMerge(databaseLayer(settings)), Layer.provideMerge(keyring))
  })

/** The network's node(s), failing over in order, and its energy provider. */
const networkLayer = (part: NetworkPart) =>
  Effect.gen(function*() {
    if (part.layer !== undefined) return part.layer
    const nodes = (yield* referenceDefaults(nodeConfigs(part.network))).map((node) => ({
      ...node,
      ...(part.apiKey === undefined ? {} : { apiKey: Option.some(Redacted.make(part.apiKey)) }),
      ...(part.usdtContract === undefined ? {} : { usdtContract: part.usdtContract }),
      ...(part.requestsPerSecond === undefined ? {} : { requestsPerSecond: part.requestsPerSecond })
    }))
    const chosen = part.nodeUrls === undefined ? nodes : part.nodeUrls.map((url) => ({ ...nodes[0]!, fullNodeUrl: url, solidityUrl: url }))
    const failover = yield* referenceDefaults(nodeFailoverConfig)
    // As the reference server: the simulator's provider only while nile's node is the default one.
    const provider = part.energyProvider ??
      (part.nodeUrls === undefined ? yield* referenceDefaults(energyProviderConfig(part.network)) : { kind: "none" as const, network: part.network })
    const chain = Layer.effect(Chain.Chain, Effect.map(failoverNodeChain(chosen, failover), (built) => built.chain)).pipe(
      Layer.provide(part.http ?? nodeHttpClient())
    )
    return Layer.merge(chain, energyProviderLayer(provider).pipe(Layer.provide(part.http ?? FetchHttpClient.layer)))
  })

/** Every network's engine, each forked for the life of the layer, and the record pruning once per process. */
const enginesRunning = (settings: CollectorSettings) =>
  Effect.gen(function*() {
    if (settings.engine === false) return Layer.empty
    const defaults = yield* referenceDefaults(Engine.engineConfig)
    const overrides = typeof settings.engine === "object" ? settings.engine : {}
    const engineSettings: Engine.EngineSettings = { ...defaults, processName: `${hostname()}/${process.pid}`, ...overrides }
    const pruning = yield* referenceDefaults(Retention.recordPruningConfig)
    const perNetwork = yield* Effect.forEach(settings.networks, (part) =>
      Effect.gen(function*() {
        const adapters = yield* networkLayer(part)
        const minimum = part.depositMinimum ?? (yield* referenceDefaults(Scanning.depositMinimumConfig(part.network)))
        const engine = Engine.Engine.layer(part.network, { ...engineSettings, scanner: { ...engineSettings.scanner, depositMinimum: minimum } })
        return Layer.scopedDiscard(Effect.flatMap(Engine.Engine, (running) => Effect.forkScoped(running.run))).pipe(
          Layer.provide(engine),
          Layer.provide(adapters),
          Layer.provide(Engine.Heartbeats.recording)
        )
      }))
    const pruned = Layer.scopedDiscard(Effect.flatMap(Retention.RecordPruning, (running) => Effect.forkScoped(running.run))).pipe(
      Layer.provide(Retention.RecordPruning.layer(pruning))
    )
    return Layer.mergeAll(pruned, ...perNetwork).pipe(Layer.provide(Engine.Heartbeats.layer))
  })

const keyStoreLayer = (part: KeyStorePart): Layer.Layer<KeyStore.KeyStore, unknown, KeyStore.KeyStoreNeeds> => {
  if (part.layer !== undefined) return part.layer
  const variables = part.pkcs11 === undefined ? { KEY_STORE: "local" } : { ...part.pkcs11, KEY_STORE: "pkcs11" }
  // The store reads KEY_STORE and PKCS11_* through Config; here they come from the settings object, never the environment.
  return Layer.provide(KeyStore.layer, Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(variables)))))
}

/** Fails a call whose arguments the published schemas refuse; the rest are the core's own errors. */
const makeCollector = Effect.gen(function*() {
  const admin = yield* Tenants.TenantAdmin
  const wallets = yield* Wallets.Wallets
  const deposits = yield* Deposits.DepositRepository
  return {
    tenants: {
      /** A tenant on `networks`; its app secrets and webhook keys are in `credentials`, shown this once. */
      create: (name: unknown, networks: unknown) =>
        Effect.flatMap(decodeArguments("tenants.create", { name: TenantNameInput, networks: NetworksInput }, { name, networks }), (input) => admin.create(input.name, input.networks)),
      /** By ID or name; fails `TenantNotFound`. */
      find: (idOrName: unknown) =>
        Effect.flatMap(decodeArguments("tenants.find", { idOrName: TenantNameInput }, { idOrName }), (input) => admin.find(input.idOrName)),
      list: admin.list
    },
    wallets: {
      /** A new receiving address in `scope`; fails `CustomIdTaken` when the tenant already used `customId` there. */
      create: (scope: unknown, customId: unknown) =>
        Effect.flatMap(decodeArguments("wallets.create", { scope: TenantScopeInput, customId: CustomIdInput }, { scope, customId }), (input) => wallets.create(input.scope, input.customId)),
      /** Fails `WalletNotFound`. */
      get: (scope: unknown, walletId: unknown) =>
        Effect.flatMap(decodeArguments("wallets.get", { scope: TenantScopeInput, walletId: WalletIdInput }, { scope, walletId }), (input) => wallets.get(input.scope, input.walletId))
    },
    deposits: {
      /** Newest first; `address` filters by receiving address (contains). */
      list: (scope: unknown, query: unknown = {}) =>
        Effect.flatMap(decodeArguments("deposits.list", { scope: TenantScopeInput, query: PagingInput }, { scope, query }), (input) => deposits.list(input.scope, input.query))
    }
  }
})

/** The collector's calls as Effects: every argument decoded with the published schemas first. */
export class Collector extends Context.Tag("@collector/server/Collector")<Collector, Effect.Effect.Success<typeof makeCollector>>() {}

/**
 * The whole collector from one settings object, for Effect users: the storage (migrated, the
 * master key checked), the key store, the engine of every network running on its own fibers, and
 * `Collector` beside the core services it calls (`TenantAdmin`, `Wallets`, every storage port),
 * which stay visible for whatever the calls do not cover. Closing the layer's scope stops the
 * engines, closes the pool and stops an embedded PostgreSQL.
 */
export const layer = (settings: CollectorSettings) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const keyring = MasterKeyring.layer({
      current: MasterKey.unsafeMake(settings.keyStore.masterKey),
      previous: (settings.keyStore.previousMasterKeys ?? []).map(MasterKey.unsafeMake)
    })
    const storage = yield* storageLayer(settings.database, keyring)
    const outboundDefaults = yield* referenceDefaults(webhookDeliveryConfig)
    const outbound = settings.outbound?.layer ?? WebhookDelivery.layer({
      allowPrivateTargets: settings.outbound?.allowPrivateTargets ?? outboundDefaults.allowPrivateTargets,
      ...(settings.outbound?.extraCa === undefined ? {} : { extraCa: settings.outbound.extraCa })
    })
    const secrets = AesGcmSecretBox.layer.pipe(Layer.provideMerge(NodeEntropy.layer))
    const keys = Layer.mergeAll(KeyStore.walletKeys, KeyStore.signer).pipe(Layer.provideMerge(keyStoreLayer(settings.keyStore)))
    const services = Layer.mergeAll(Tenants.TenantAdmin.layer, Wallets.Wallets.layer)
    const engines = yield* enginesRunning(settings)
    return Layer.merge(Layer.effect(Collector, makeCollector), engines).pipe(
      Layer.provideMerge(services),
      Layer.provideMerge(Layer.mergeAll(keys, WebhookEnvelopeSealer.layer, outbound)),
      Layer.provideMerge(secrets),
      Layer.provideMerge(storage)
    )
  }))

/** A call's failure as a promise rejection: the tagged error itself (`_tag`, its fields), or the defect. */
const settle = <A, E>(exit: Exit.Exit<A, E>): A => {
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  throw Option.isSome(failure) ? failure.value : Cause.squash(exit.cause)
}

/**
 * The whole collector from one settings object, for plain JavaScript: started when the promise
 * resolves (a start that fails rejects and leaves nothing running). Every call returns a
 * promise; a refused call rejects with the tagged error (`InvalidInput`, `CustomIdTaken`, ...).
 * `close()` stops everything; `runtime` runs any Effect over the services of `layer`.
 */
export const make = async (settings: CollectorSettings) => {
  const runtime = ManagedRuntime.make(layer(settings))
  try {
    await runtime.runtime()
  } catch (error) {
    await runtime.dispose()
    throw error
  }
  const run = <A, E>(effect: Effect.Effect<A, E, Collector | Scanning.ScanLedger>) => runtime.runPromiseExit(effect).then(settle)
  const call = <A, E>(use: (collector: Collector["Type"]) => Effect.Effect<A, E>) => run(Effect.flatMap(Collector, use))
  return {
    tenants: {
      create: (name: string, networks: ReadonlyArray<Kernel.Network>): Promise<Tenants.CreatedTenant> => call((c) => c.tenants.create(name, networks)),
      find: (idOrName: string): Promise<Tenants.TenantWithApps> => call((c) => c.tenants.find(idOrName)),
      list: () => call((c) => c.tenants.list)
    },
    wallets: {
      create: (scope: { readonly tenantId: string; readonly network: Kernel.Network }, customId: string) => call((c) => c.wallets.create(scope, customId)),
      get: (scope: { readonly tenantId: string; readonly network: Kernel.Network }, walletId: string) => call((c) => c.wallets.get(scope, walletId))
    },
    deposits: {
      list: (scope: { readonly tenantId: string; readonly network: Kernel.Network }, query?: { readonly page?: number; readonly pageSize?: number; readonly address?: string }): Promise<Kernel.Page<Deposits.Deposit>> =>
        call((c) => c.deposits.list(scope, query))
    },
    /** The highest block `network`'s scanner has read, or null before its first pass (a health check's answer). */
    scannedBlock: (network: Kernel.Network): Promise<bigint | null> =>
      run(Effect.map(Effect.flatMap(Scanning.ScanLedger, (ledger) => ledger.cursor(network)), (cursor) => Option.match(cursor, { onNone: () => null, onSome: (at) => at.number }))),
    runtime,
    close: () => runtime.dispose()
  }
}

/** What `make` resolves to. */
export type CollectorHandle = Awaited<ReturnType<typeof make>>
