import type { DepositBook, MemoryDatabase, SweepRepository } from "@collector/core"
import { Layer } from "effect"
import * as DoubleBook from "./plants/DoubleBook.js"
import * as LoseEvent from "./plants/LoseEvent.js"
import * as Resign from "./plants/Resign.js"
import * as SkipRevert from "./plants/SkipRevert.js"

/** Known defects a run can be given (`--plant`), each of which the invariants must catch. */
export const plantNames = ["double-book", "lose-event", "resign", "skip-revert"] as const

export type PlantName = (typeof plantNames)[number]

/** What a plant may wrap: the ports it replaces, over the store they run on. */
type Wrapped = DepositBook | SweepRepository | MemoryDatabase

/** A plant replaces ports the store already provides, so it adds no service to the run's. */
type Plant = Layer.Layer<never, never, Wrapped>

const plants: Record<PlantName, Plant> = {
  "double-book": DoubleBook.layer,
  "lose-event": LoseEvent.layer,
  resign: Resign.layer,
  "skip-revert": SkipRevert.layer
}

export const isPlantName = (name: string): name is PlantName => (plantNames as ReadonlyArray<string>).includes(name)

/**
 * The defect `name` planted in the store: a layer that replaces a port with a wrapper around the
 * real one (provided after the store). None: the store as it is.
 */
export const plantLayer = (name: PlantName | undefined): Plant =>
  name === undefined ? Layer.empty : plants[name]
