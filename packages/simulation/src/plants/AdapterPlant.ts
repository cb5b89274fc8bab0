import type { Chain, Energy } from "@collector/core"
import type { SimChain } from "@collector/tron-sim"

/** The adapters of one network as a plant sees them: the node adapter, the provider adapter and, to read what they skip, the simulator's chain. */
export interface NetworkAdapters {
  readonly chain: Chain.ChainService
  readonly provider: Energy.EnergyProviderService
  readonly sim: SimChain.SimChain
}

/** A defect planted in a network's adapters (the node's, the provider's): returns the adapters the engines get. */
export type AdapterPlant = (adapters: NetworkAdapters) => { readonly chain: Chain.ChainService; readonly provider: Energy.EnergyProviderService }
