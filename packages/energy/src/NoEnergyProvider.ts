import { EnergyProvider, noEnergyProvider } from "@collector/core"
import { Layer } from "effect"

/** `ENERGY_PROVIDER_<NETWORK>=none`: the core's refusing provider, named after the network. */
export const make = noEnergyProvider

export const layer = (network: string): Layer.Layer<EnergyProvider> => Layer.succeed(EnergyProvider, noEnergyProvider(network))
