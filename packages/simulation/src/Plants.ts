import type { HandlerOverrides } from "@collector/http-server"
import type { Delegation, Memory, Notifications, Scanning, Settings, Sweeps } from "@collector/core"
import { Layer } from "effect"
import type { AdapterPlant } from "./plants/AdapterPlant.js"
import * as CollectionCache from "./plants/CollectionCache.js"
import * as DoubleBook from "./plants/DoubleBook.js"
import * as EarlyReceipt from "./plants/EarlyReceipt.js"
import * as ForeignUrl from "./plants/ForeignUrl.js"
import * as LoseEvent from "./plants/LoseEvent.js"
import * as NetworkRule from "./plants/NetworkRule.js"
import * as OtherTokens from "./plants/OtherTokens.js"
import * as ReceiptContract from "./plants/ReceiptContract.js"
import * as RecordTime from "./plants/RecordTime.js"
import * as ReclaimForgotten from "./plants/ReclaimForgotten.js"
import * as RentalRenumber from "./plants/RentalRenumber.js"
import * as Resign from "./plants/Resign.js"
import * as SkipRevert from "./plants/SkipRevert.js"
import * as UnwrappedCreate from "./plants/UnwrappedCreate.js"

/** Known defects a run can be given (`--plant`), each of which the invariants must catch. */
export const plantNames = [
  "double-book",
  "lose-event",
  "resign",
  "skip-revert",
  "record-time",
  "network-rule",
  "foreign-url",
  "collection-cache",
  "early-receipt",
  "other-tokens",
  "rental-renumber",
  "unwrapped-create",
  "receipt-contract",
  "reclaim-forgotten"
] as const

export type PlantName = (typeof plantNames)[number]

/**
 * The first seed (of 1 to 20) whose run catches each plant, found by running them in order
 * (`Plants.test.ts` checks it): CI runs each plant on its seed alone, so one run a plant proves it
 * is still caught. A change to the workload or the faults may move them: run the test again.
 */
export const plantSeeds: Record<PlantName, number> = {
  "double-book": 1,
  "lose-event": 1,
  resign: 1,
  "skip-revert": 1,
  "record-time": 1,
  "network-rule": 1,
  "foreign-url": 1,
  "collection-cache": 3,
  "early-receipt": 1,
  "other-tokens": 1,
  "rental-renumber": 1,
  "unwrapped-create": 1,
  "receipt-contract": 2,
  "reclaim-forgotten": 1
}

/** What a plant may wrap: the ports it replaces, over the store they run on. */
type Wrapped = Scanning.DepositBook | Sweeps.SweepRepository | Settings.SettingsRepository | Notifications.DeliveryLedger | Delegation.DelegationLedger | Memory.MemoryDatabase

/** A plant in the store replaces ports the store already provides, so it adds no service to the run's. */
type StorePlant = Layer.Layer<never, never, Wrapped>

/** Where a defect is planted: in the store's ports, in each network's node and provider adapters, or in the API's handlers. */
type Plant = { readonly store: StorePlant } | { readonly adapters: AdapterPlant } | { readonly handlers: HandlerOverrides }

const plants: Record<PlantName, Plant> = {
  "double-book": { store: DoubleBook.layer },
  "lose-event": { store: LoseEvent.layer },
  resign: { store: Resign.layer },
  "skip-revert": { store: SkipRevert.layer },
  "record-time": { store: RecordTime.layer },
  "network-rule": { store: NetworkRule.layer },
  "foreign-url": { store: ForeignUrl.layer },
  "collection-cache": { store: CollectionCache.layer },
  "early-receipt": { adapters: EarlyReceipt.plant },
  "other-tokens": { adapters: OtherTokens.plant },
  "rental-renumber": { adapters: RentalRenumber.plant },
  "unwrapped-create": { handlers: UnwrappedCreate.handlers },
  "receipt-contract": { adapters: ReceiptContract.plant },
  "reclaim-forgotten": { store: ReclaimForgotten.layer }
}

export const isPlantName = (name: string): name is PlantName => (plantNames as ReadonlyArray<string>).includes(name)

/**
 * The defect `name` planted in the store: a layer that replaces a port with a wrapper around the
 * real one (provided after the store). None, or a plant in the adapters: the store as it is.
 */
export const plantLayer = (name: PlantName | undefined): StorePlant => {
  const plant = name === undefined ? undefined : plants[name]
  return plant !== undefined && "store" in plant ? plant.store : Layer.empty
}

/** The defect `name` planted in a network's adapters; the adapters as they are otherwise. */
export const plantAdapters = (name: PlantName | undefined): AdapterPlant => {
  const plant = name === undefined ? undefined : plants[name]
  return plant !== undefined && "adapters" in plant ? plant.adapters : ({ chain, provider }) => ({ chain, provider })
}

/** The handler groups `name` replaces in the API (its handlers as they are otherwise). */
export const plantHandlers = (name: PlantName | undefined): HandlerOverrides => {
  const plant = name === undefined ? undefined : plants[name]
  return plant !== undefined && "handlers" in plant ? plant.handlers : {}
}
