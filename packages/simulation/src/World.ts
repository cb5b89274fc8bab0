import { WebhookEnvelopeSealer } from "@collector/api"
import { Engine, Kernel, Notifications, Settings, Sweeps, Tenants, Wallets } from "@collector/core"
import { LocalSigner, LocalWalletKeys } from "@collector/tron"
import { defaultSimConfig } from "@collector/tron-sim"
import { AesGcmSecretBox, MasterKey, MasterKeyring } from "@collector/vault"
import { Duration, Effect, Layer } from "effect"
import * as SimulatedApi from "./api/SimulatedApi.js"
import { type PlantName, plantAdapters, plantHandlers } from "./Plants.js"
import type { Receiver } from "./Receiver.js"
import type { Dice } from "./Dice.js"
import { ConnectionCuts } from "./faults/ConnectionCuts.js"
import { postgresStorage } from "./PgRunStorage.js"
import { memoryStorage, type RunStorage } from "./RunStorage.js"
import type { RunOptions } from "./RunOptions.js"
import type { Trace } from "./Trace.js"
import * as ReceiverTargets from "./ReceiverTargets.js"

export { receiverHost } from "./ReceiverTargets.js"
import * as SimulatedNetwork from "./SimulatedNetwork.js"
import { Worker } from "./Worker.js"
import { PathCounts } from "./workload/PathCounts.js"
import { WorkloadLedger } from "./workload/WorkloadLedger.js"
import type { WorldParts } from "./WorldParts.js"

/** The networks every run serves, each on its own simulator. */
export const worldNetworks: ReadonlyArray<Kernel.Network> = ["nile", "main"]

/** How the engines run in a simulation: passes are driven one by one, so intervals only set what is due. */
export const simulationEngineSettings: Engine.EngineSettings = {
  ...Engine.defaultEngineSettings,
  // A deployment scans before its wallets are paid: the first scan starts at the simulators'
  // genesis, so a first scan that faults hold back past the solidified block misses nothing.
  scanner: { batchBlocks: 20, fetchConcurrency: 2, startBlock: defaultSimConfig().genesisNumber },
  loop: { ...Engine.defaultEngineSettings.loop, batchesPerPass: 2, integrityWindow: 40n, retainedBlocks: 200n },
  // Every wait zero: each sweeper pass looks at every unfinished task, so tasks move as fast as
  // the scheduler runs passes and the chain makes blocks.
  sweeper: {
    ...Engine.defaultEngineSettings.sweeper,
    settleDelay: Duration.zero,
    settleInterval: Duration.zero,
    bandwidthInterval: Duration.zero,
    rentalInterval: Duration.zero,
    retryInterval: Duration.zero,
    rebroadcastInterval: Duration.seconds(10)
  },
  dispatcher: { ...Engine.defaultEngineSettings.dispatcher, maxInFlight: 16, perTenant: 4, claimLease: Duration.seconds(20) },
  processName: "sim"
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
 * PostgreSQL server they name, whose connection is cut in money steps as `faults` (the run's
 * fault dice) draw; the memory store draws nothing from them.
 */
export const storageOf = (options: RunOptions, trace: Trace, faults: Dice, paths: PathCounts): RunStorage => {
  const refusal = storageRefusal(options)
  if (refusal !== undefined) throw new Error(refusal)
  if (options.storage !== "postgres") return memoryStorage(trace, options.plant)
  const cuts = new ConnectionCuts(faults.stream("connection-cuts"), trace, paths, options.connectionCuts)
  return postgresStorage(options.databaseServer!, cuts)
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
  const entropy = Kernel.SeededEntropy.layer(`${seed}/entropy`)
  const keyring = MasterKeyring.layer({ current: MasterKey.unsafeMake(new Uint8Array(32).fill(7)) })
  const box = AesGcmSecretBox.layer.pipe(Layer.provide(keyring))
  const ports = Layer.mergeAll(
    storage,
    LocalSigner.layer,
    LocalWalletKeys.layer,
    WebhookEnvelopeSealer.layer,
    ReceiverTargets.layer,
    Layer.succeed(Notifications.DeliveryTransport, receiver.transport),
    Sweeps.SweepSettings.layer()
  ).pipe(Layer.provideMerge(box), Layer.provideMerge(Layer.merge(entropy, keyring)))
  const tenantSide = Layer.mergeAll(Tenants.TenantAdmin.layer, Wallets.Wallets.layer, Settings.SettingsService.layer, Notifications.Notifications.layer)
  return tenantSide.pipe(Layer.provideMerge(ports))
}

/** The networks on their simulators, two workers, the tenants' receivers and the API they call. */
export const parts = (seed: string, receiver: Receiver, plant?: PlantName, paths = new PathCounts()) =>
  Effect.gen(function*() {
    const planted = plant === undefined ? undefined : plantAdapters(plant)
    const networks = yield* Effect.forEach(worldNetworks, (network) => SimulatedNetwork.make(network, seed, paths, planted))
    const api = yield* SimulatedApi.make(networks, plantHandlers(plant))
    return { seed, networks, workers: [new Worker("A"), new Worker("B")], receiver, ledger: new WorkloadLedger(), api, paths } satisfies WorldParts
  })
