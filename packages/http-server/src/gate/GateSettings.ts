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
  /** How long an app ID found unknown is refused from memory, without a database look-up. */
  readonly unknownAppCacheTtl: Duration.Duration
  /** Requests one client address may have in the unauthenticated phase at once (429 past it). */
  readonly unauthenticatedPerAddress: number
  /** Authentication failures one client address may have per second, after a burst of `failureBurst` (429 past it). */
  readonly failuresPerSecond: number
  readonly failureBurst: number
  /**
   * The header a trusted reverse proxy puts the client's address in (its last entry is used);
   * empty: the address of the connection.
   */
  readonly clientAddressHeader: string
}

export const defaultGateSettings: GateSettings = {
  maxBodyBytes: 64 * 1024,
  ratePerSecond: 20,
  rateBurst: 40,
  maxInFlight: 256,
  requestDeadline: Duration.seconds(15),
  timestampWindowSeconds: 300,
  credentialCacheTtl: Duration.millis(500),
  unknownAppCacheTtl: Duration.seconds(10),
  unauthenticatedPerAddress: 32,
  failuresPerSecond: 10,
  failureBurst: 100,
  clientAddressHeader: ""
}

/**
 * `API_MAX_BODY_BYTES`, `API_RATE_PER_SECOND`, `API_RATE_BURST`, `API_MAX_IN_FLIGHT`, `API_REQUEST_DEADLINE_MS`,
 * `API_UNAUTHENTICATED_PER_ADDRESS`, `API_FAILURES_PER_SECOND`, `API_FAILURE_BURST`, `API_CLIENT_ADDRESS_HEADER`.
 */
export const gateSettingsConfig: Config.Config<GateSettings> = Config.all({
  maxBodyBytes: ConfigValue.integer("API_MAX_BODY_BYTES", { min: 1, default: defaultGateSettings.maxBodyBytes }),
  ratePerSecond: ConfigValue.integer("API_RATE_PER_SECOND", { min: 1, default: defaultGateSettings.ratePerSecond }),
  rateBurst: ConfigValue.integer("API_RATE_BURST", { min: 1, default: defaultGateSettings.rateBurst }),
  maxInFlight: ConfigValue.integer("API_MAX_IN_FLIGHT", { min: 1, default: defaultGateSettings.maxInFlight }),
  requestDeadline: ConfigValue.millis("API_REQUEST_DEADLINE_MS", { min: 1 }).pipe(Config.withDefault(defaultGateSettings.requestDeadline)),
  timestampWindowSeconds: Config.succeed(defaultGateSettings.timestampWindowSeconds),
  credentialCacheTtl: Config.succeed(defaultGateSettings.credentialCacheTtl),
  unknownAppCacheTtl: Config.succeed(defaultGateSettings.unknownAppCacheTtl),
  unauthenticatedPerAddress: ConfigValue.integer("API_UNAUTHENTICATED_PER_ADDRESS", {
    min: 1,
    default: defaultGateSettings.unauthenticatedPerAddress
  }),
  failuresPerSecond: ConfigValue.integer("API_FAILURES_PER_SECOND", { min: 1, default: defaultGateSettings.failuresPerSecond }),
  failureBurst: ConfigValue.integer("API_FAILURE_BURST", { min: 1, default: defaultGateSettings.failureBurst }),
  clientAddressHeader: Config.string("API_CLIENT_ADDRESS_HEADER").pipe(
    Config.map((name) => name.trim().toLowerCase()),
    Config.withDefault(defaultGateSettings.clientAddressHeader)
  )
})

export class Gate extends Context.Tag("@collector/http-server/GateSettings")<Gate, GateSettings>() {
  /** `settings` over the defaults. */
  static readonly layer = (settings: Partial<GateSettings> = {}) => Layer.succeed(Gate, { ...defaultGateSettings, ...settings })
  /** The settings of `config` (by default the API_* variables). */
  static readonly layerConfig = (config: Config.Config<GateSettings> = gateSettingsConfig) => Layer.effect(Gate, config)
}
