import { ConfigValue, type Kernel, Setting } from "@collector/core"
import { Config } from "effect"

/** How a simulated node is served as a process of its own (`npm run devchain`) or in `npm start`. */
export interface SimServerSettings {
  readonly port: number
  readonly host: string
  readonly network: Kernel.Network
  /** A block every this many milliseconds; 0: blocks only on `/sim/mine`. */
  readonly blockMs: number
  /** Seed of its keys (faucet, issuer, provider). */
  readonly seed: string
}

export const defaultSimServerSettings: SimServerSettings = { port: 8090, host: "127.0.0.1", network: "nile", blockMs: 3000, seed: "tron-sim" }

/** `TRON_SIM_PORT`, `TRON_SIM_HOST`, `TRON_SIM_NETWORK`, `TRON_SIM_BLOCK_MS`, `TRON_SIM_SEED`. */
export const simServerSettings = {
  port: Setting.declare({
    name: "TRON_SIM_PORT",
    default: defaultSimServerSettings.port,
    description: "Port of the simulated node (java-tron's HTTP port)."
  }, (name) => ConfigValue.port(name)),
  host: Setting.declare({
    name: "TRON_SIM_HOST",
    default: defaultSimServerSettings.host,
    description: "Interface it listens on."
  }, (name) => Config.string(name)),
  blockMs: Setting.declare({
    name: "TRON_SIM_BLOCK_MS",
    default: defaultSimServerSettings.blockMs,
    description: "A block every interval (at least 100 ms); `0`: blocks only on `/sim/mine`."
  }, (name) => ConfigValue.integer(name, { min: 0, unit: "milliseconds" }).pipe(
      Config.validate({
        message: `${name} must be 0 (blocks only on /sim/mine) or a whole number of at least 100 (milliseconds)`,
        validation: (ms) => ms === 0 || ms >= 100
      })
    )),
  seed: Setting.declare({
    name: "TRON_SIM_SEED",
    default: defaultSimServerSettings.seed,
    description: "Seed of its keys (faucet, issuer, provider)."
  }, (name) => Config.string(name)),
  network: Setting.declare({
    name: "TRON_SIM_NETWORK",
    default: defaultSimServerSettings.network,
    description: "The network `npm run devchain` simulates (`main` or `nile`); `npm start` always simulates `nile`."
  }, (name) => ConfigValue.oneOf(name, ["main", "nile"] as const))
}

export const simServerConfig: Config.Config<SimServerSettings> = Config.all(simServerSettings)
