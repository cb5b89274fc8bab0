import { Effect } from "effect"
import type { ProviderSettings } from "../ProviderBook.js"
import type { SimConfig } from "../SimConfig.js"
import { driven, make } from "../SimEnergyProvider.js"
import { testChain } from "./SimTestChain.js"

/**
 * A nile simulator on TestClock with its energy provider, without HTTP: `chain.mine` lets the
 * provider act before each block, as the server's does.
 */
export const providerChain = (overrides: Partial<SimConfig> = {}, settings: Partial<ProviderSettings> = {}) =>
  Effect.gen(function*() {
    const bare = yield* testChain(overrides)
    const provider = yield* make(bare, settings)
    return { chain: driven(bare, provider), provider }
  })
