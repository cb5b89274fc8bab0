import { WebhookEnvelopeSealer } from "@collector/api"
import {
  defaultEngineSettings,
  DeliveryTransport,
  type EngineSettings,
  type Network,
  Notifications,
  SeededEntropy,
  SettingsService,
  SingleNetworkResources,
  Sweeps,
  SweepSettings,
  TenantAdmin,
  Wallets
} from "@collector/core"
import { LocalSigner, LocalWalletKeys } from "@collector/tron"
import { defaultSimConfig } from "@collector/tron-sim"
import { AesGcmSecretBox, MasterKey, MasterKeyring } from "@collector/vault"
import { Duration, Effect, Layer } from "effect"
import * as SimulatedApi from "./api/SimulatedApi.js"
import type { TenantClient } from "./api/TenantClient.js"
import { type PlantName, plantAdapters, plantHandlers } from "./Plants.js"
import type { Receiver } from "./Receiver.js"
import { postgresStorage } from "./PgRunStorage.js"
import { memoryStorage, type RunStorage } from "./RunStorage.js"
import type { RunOptions } from "./Simulation.js"
import type { Trace } from "./Trace.js"
import * as ReceiverTargets from "./ReceiverTargets.js"

export { receiverHost } from "./ReceiverTargets.js"
import * as SimulatedNetwork from "./SimulatedNetwork.js"
import { Worker } from "./Worker.js"
import { PathCounts } from "./workload/PathCounts.js"
import { WorkloadLedger } from "./workload/WorkloadLedger.js"

/** The networks every run serves, each on its own simulator. */
export const worldNetworks: ReadonlyArray<Network> = ["nile", "main"]

/** How the engines run in a simulation: passes are driven one by one, so intervals only set what is due. */
export const simulationEngineSettings: EngineSettings = {
  ...defaultEngineSettings,
  // A deployment scans before its wallets are paid: the first scan starts at the simulators'
  // genesis, so a first scan that faults hold back past the solidified block misses nothing.
  scanner: { batchBlocks: 20, fetchConcurrency: 2, startBlock: defaultSimConfig().genesisNumber },
  loop: { ...defaultEngineSettings.loop, batchesPerPass: 2, integrityWindow: 40n, retainedBlocks: 200n },
  // Every wait zero: each sweeper pass looks at every unfinished task, so tasks move as fast as
  // the scheduler runs passes and the chain makes blocks.
  sweeper: {
    ...defaultEngineSettings.sweeper,
    settleDelay: Duration.zero,
    settleInterval: Duration.zero,
    bandwidthInterval: Duration.zero,
    rentalInterval: Duration.zero,
    retryInterval: Duration.zero,
    rebroadcastInterval: Duration.seconds(10)
  },
  dispatcher: { ...defaultEngineSettings.dispatcher, maxInFlight: 16, perTenant: 4, claimLease: Duration.seconds(20) },
  processName: "sim"
}

/** What a run is made of; the scheduler, the workload, the faults and the invariants work on it. */
export interface WorldParts {
  readonly seed: string
  readonly networks: ReadonlyArray<SimulatedNetwork.SimulatedNetwork>
  readonly workers: ReadonlyArray<Worker>
  readonly receiver: Receiver
  /** What the workload did that the invariants read (collection addresses, replay comparisons). */
  readonly ledger: WorkloadLedger
  /** The API in this process (gate, handlers, their idempotency), as the tenants call it. */
  readonly api: TenantClient
  /** How often the run reached the money paths the workload and the faults aim at. */
  readonly paths: PathCounts
}

/** Why a run cannot have the store its options ask for; undefined when it can. */
export const storageRefusal = (options: RunOptions): string | undefined =>
  (options.storage ?? "memory") === "memory"
    ? undefined
    : options.plant !== undefined
    ? `the plants wrap the memory store: --plant ${options.plant} runs on --storage memory only`
    : options.databaseServer === undefined
    ? "a postgres run needs the PostgreSQL server's URL (databaseServer)"
    : undefined

/**
 * The store `options` ask for: memory (with the plant, if any), or a fresh database on the
 * PostgreSQL server they name.
 */
export const storageOf = (options: RunOptions, trace: Trace): RunStorage => {
  const refusal = storageRefusal(options)
  if (refusal !== undefined) throw new Error(refusal)
  return options.storage === "postgres" ? postgresStorage(options.databaseServer!) : memoryStorage(trace, options.plant)
}

/**
 * The services of a run outside the workers: the store (`storageOf`), the
 * secret box under a fixed master key with seeded entropy, the signer, the webhook envelope, URL
 * checks against a host table that names the in-process receiver, and the tenant-side services
 * the API's handlers call. `answer` is the receivers' fault schedule.
 */
export const services = (
  seed: string,
  storage: RunStorage["layer"],
  receiver: Receiver
) => {
  const entropy = SeededEntropy.layer(`${seed}/entropy`)
  const keyring = MasterKeyring.layer({ current: MasterKey.unsafeMake(new Uint8Array(32).fill(7)) })
  const box = AesGcmSecretBox.layer.pipe(Layer.provide(keyring))
  const ports = Layer.mergeAll(
    storage,
    LocalSigner.layer,
    LocalWalletKeys.layer,
    WebhookEnvelopeSealer.layer,
    ReceiverTargets.layer,
    Layer.succeed(DeliveryTransport, receiver.transport),
    SweepSettings.layer()
  ).pipe(Layer.provideMerge(box), Layer.provideMerge(Layer.merge(entropy, keyring)))
  const tenantSide = Layer.mergeAll(TenantAdmin.layer, Wallets.layer, SettingsService.layer, Notifications.layer)
  return tenantSide.pipe(Layer.provideMerge(ports))
}

/** The sweep operations of one network, as the API calls them (its estimate reads that network). */
export const sweepsOf = (network: SimulatedNetwork.SimulatedNetwork) =>
  Sweeps.layer.pipe(Layer.provide(SingleNetworkResources.layer), Layer.provide(network.adapters))

/** The networks on their simulators, two workers, the tenants' receivers and the API they call. */
export const parts = (seed: string, receiver: Receiver, plant?: PlantName) =>
  Effect.gen(function*() {
    const planted = plant === undefined ? undefined : plantAdapters(plant)
    const paths = new PathCounts()
    const networks = yield* Effect.forEach(worldNetworks, (network) => SimulatedNetwork.make(network, seed, paths, planted))
    const api = yield* SimulatedApi.make(networks, plantHandlers(plant))
    return { seed, networks, workers: [new Worker("A"), new Worker("B")], receiver, ledger: new WorkloadLedger(), api, paths } satisfies WorldParts
  })
