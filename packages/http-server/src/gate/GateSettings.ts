import { ConfigValue } from "@collector/core"
import { Config, Context, Duration, Layer } from "effect"

/** The contract's operator limits, each a setting with the contract's default. */
export interface GateSettings {
  readonly maxBodyBytes: number
  readonly ratePerSecond: number
  readonly rateBurst: number
  readonly maxInFlight: number
  readonly requestDeadline: Duration.Duration
  readonly timestampWindowSeconds: number
  /** How long a tenant's status and secret may be served from memory (under a second). */
  readonly credentialCacheTtl: Duration.Duration
}

export const defaultGateSettings: GateSettings = {
  maxBodyBytes: 64 * 1024,
  ratePerSecond: 20,
  rateBurst: 40,
  maxInFlight: 256,
  requestDeadline: Duration.seconds(15),
  timestampWindowSeconds: 300,
  credentialCacheTtl: Duration.millis(500)
}

/** `API_MAX_BODY_BYTES`, `API_RATE_PER_SECOND`, `API_RATE_BURST`, `API_MAX_IN_FLIGHT`, `API_REQUEST_DEADLINE_MS`. */
export const gateSettingsConfig: Config.Config<GateSettings> = Config.all({
  maxBodyBytes: ConfigValue.integer("API_MAX_BODY_BYTES", { min: 1, default: defaultGateSettings.maxBodyBytes }),
  ratePerSecond: ConfigValue.integer("API_RATE_PER_SECOND", { min: 1, default: defaultGateSettings.ratePerSecond }),
  rateBurst: ConfigValue.integer("API_RATE_BURST", { min: 1, default: defaultGateSettings.rateBurst }),
  maxInFlight: ConfigValue.integer("API_MAX_IN_FLIGHT", { min: 1, default: defaultGateSettings.maxInFlight }),
  requestDeadline: ConfigValue.millis("API_REQUEST_DEADLINE_MS", { min: 1 }).pipe(Config.withDefault(defaultGateSettings.requestDeadline)),
  timestampWindowSeconds: Config.succeed(defaultGateSettings.timestampWindowSeconds),
  credentialCacheTtl: Config.succeed(defaultGateSettings.credentialCacheTtl)
})

export class Gate extends Context.Tag("@collector/http-server/GateSettings")<Gate, GateSettings>() {
  /** `settings` over the defaults. */
  static readonly layer = (settings: Partial<GateSettings> = {}) => Layer.succeed(Gate, { ...defaultGateSettings, ...settings })
  /** The settings of `config` (by default the API_* variables). */
  static readonly layerConfig = (config: Config.Config<GateSettings> = gateSettingsConfig) => Layer.effect(Gate, config)
}
