import { WebhookEnvelopeSealer } from "@collector/api"
import {
  DeliveryTransport,
  defaultEngineSettings,
  type EngineSettings,
  MemoryDatabase,
  memoryStorageWith,
  type Network,
  Notifications,
  SettingsService,
  SweepSettings,
  Sweeps,
  SingleNetworkResources,
  TenantAdmin,
  Wallets
} from "@collector/core"
import { LocalSigner, LocalWalletKeys } from "@collector/tron"
import { defaultSimConfig } from "@collector/tron-sim"
import { AesGcmSecretBox, MasterKey, MasterKeyring } from "@collector/vault"
import { Duration, Effect, Layer } from "effect"
import { type PlantName, plantLayer } from "./Plants"
import type { Receiver } from "./Receiver"
import { SnapshotReader } from "./Snapshot"
import * as ReceiverTargets from "./ReceiverTargets"

export { receiverHost } from "./ReceiverTargets"
import * as SeededEntropy from "./SeededEntropy"
import * as SimulatedNetwork from "./SimulatedNetwork"
import { Worker } from "./Worker"

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
}

/**
 * The services of a run outside the workers: the store (memory, observed for the trace), the
 * secret box under a fixed master key with seeded entropy, the signer, the webhook envelope, URL
 * checks against a host table that names the in-process receiver, and the tenant-side services
 * the API's handlers call. `answer` is the receivers' fault schedule.
 */
export const services = (
  seed: string,
  onChange: Parameters<typeof MemoryDatabase.layerWith>[0]["onChange"],
  receiver: Receiver,
  plant: PlantName | undefined
) => {
  const entropy = SeededEntropy.layer(`${seed}/entropy`)
  const keyring = MasterKeyring.layer({ current: MasterKey.unsafeMake(new Uint8Array(32).fill(7)) })
  const box = AesGcmSecretBox.layer.pipe(Layer.provide(keyring))
  const storage = plantLayer(plant).pipe(Layer.provideMerge(memoryStorageWith({ onChange })))
  const snapshots = SnapshotReader.memory.pipe(Layer.provide(storage))
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
  return Layer.merge(tenantSide.pipe(Layer.provideMerge(ports)), snapshots)
}

/** The sweep operations of one network, as the API calls them (its estimate reads that network). */
export const sweepsOf = (network: SimulatedNetwork.SimulatedNetwork) =>
  Sweeps.layer.pipe(Layer.provide(SingleNetworkResources.layer), Layer.provide(network.adapters))

/** The networks on their simulators, two workers, and the tenants' receivers. */
export const parts = (seed: string, receiver: Receiver) =>
  Effect.gen(function*() {
    const networks = yield* Effect.forEach(worldNetworks, (network) => SimulatedNetwork.make(network, seed))
    return { seed, networks, workers: [new Worker("A"), new Worker("B")], receiver } satisfies WorldParts
  })
