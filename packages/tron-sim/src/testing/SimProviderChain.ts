import { Effect } from "effect"
import type { ProviderSettings } from "../ProviderBook"
import type { SimConfig } from "../SimConfig"
import { driven, make } from "../SimEnergyProvider"
import { testChain } from "./SimTestChain"

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
