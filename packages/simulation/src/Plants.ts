import { Layer } from "effect"

/** Known defects a run can be given (`--plant`), each of which the invariants must catch. */
export const plantNames = [] as const

export type PlantName = (typeof plantNames)[number]

/**
 * The defect `name` planted in the store: a layer that replaces a port with a wrapper around the
 * real one (provided after the store). None: the store as it is.
 */
export const plantLayer = (_name: PlantName | undefined): Layer.Layer<never> => Layer.empty
