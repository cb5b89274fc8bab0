import { ConfigValue, type Network } from "@collector/core"
import { Config } from "effect"

/** How a simulated node is served as a process of its own (`npm run devchain`) or in `npm start`. */
export interface SimServerSettings {
  readonly port: number
  readonly host: string
  readonly network: Network
  /** A block every this many milliseconds; 0: blocks only on `/sim/mine`. */
  readonly blockMs: number
  /** Seed of its keys (faucet, issuer, provider). */
  readonly seed: string
}

export const defaultSimServerSettings: SimServerSettings = { port: 8090, host: "127.0.0.1", network: "nile", blockMs: 3000, seed: "tron-sim" }

/** `TRON_SIM_PORT`, `TRON_SIM_HOST`, `TRON_SIM_NETWORK`, `TRON_SIM_BLOCK_MS`, `TRON_SIM_SEED`. */
export const simServerConfig: Config.Config<SimServerSettings> = Config.all({
  port: ConfigValue.port("TRON_SIM_PORT").pipe(Config.withDefault(defaultSimServerSettings.port)),
  host: Config.string("TRON_SIM_HOST").pipe(Config.withDefault(defaultSimServerSettings.host)),
  network: ConfigValue.oneOf("TRON_SIM_NETWORK", ["main", "nile"]).pipe(Config.withDefault(defaultSimServerSettings.network)),
  blockMs: ConfigValue.integer("TRON_SIM_BLOCK_MS", { min: 0, unit: "milliseconds" }).pipe(
    Config.validate({
      message: "TRON_SIM_BLOCK_MS must be 0 (blocks only on /sim/mine) or a whole number of at least 100 (milliseconds)",
      validation: (ms) => ms === 0 || ms >= 100
    }),
    Config.withDefault(defaultSimServerSettings.blockMs)
  ),
  seed: Config.string("TRON_SIM_SEED").pipe(Config.withDefault(defaultSimServerSettings.seed))
})
