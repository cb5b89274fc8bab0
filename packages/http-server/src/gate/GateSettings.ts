import { ConfigValue, Setting } from "@collector/core"
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
export const gateSettingDeclarations = {
  maxBodyBytes: Setting.declare({
    name: "API_MAX_BODY_BYTES",
    default: defaultGateSettings.maxBodyBytes,
    description: "Request body limit (413 `PAYLOAD_TOO_LARGE`); at least 1."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  ratePerSecond: Setting.declare({
    name: "API_RATE_PER_SECOND",
    default: defaultGateSettings.ratePerSecond,
    description: "Sustained requests per second per app (429 `RATE_LIMITED` with `Retry-After`); at least 1."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  rateBurst: Setting.declare({
    name: "API_RATE_BURST",
    default: defaultGateSettings.rateBurst,
    description: "Burst size per app; at least 1."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  maxInFlight: Setting.declare({
    name: "API_MAX_IN_FLIGHT",
    default: defaultGateSettings.maxInFlight,
    description: "Concurrent authenticated requests per process (503 `SERVICE_UNAVAILABLE`, `Retry-After: 1`); a request takes its slot only once authenticated. At least 1."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  unauthenticatedPerAddress: Setting.declare({
    name: "API_UNAUTHENTICATED_PER_ADDRESS",
    default: defaultGateSettings.unauthenticatedPerAddress,
    description: "Requests of one client address between their headers and their authentication at once (app look-up, body read, signature, token); one more is 429 `RATE_LIMITED`, `Retry-After: 1`. At least 1."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  failuresPerSecond: Setting.declare({
    name: "API_FAILURES_PER_SECOND",
    default: defaultGateSettings.failuresPerSecond,
    description: "Failed authentications per second one client address may have, after a burst of `API_FAILURE_BURST`; past it its requests that need authentication are 429 `RATE_LIMITED` before any look-up. At least 1."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  failureBurst: Setting.declare({
    name: "API_FAILURE_BURST",
    default: defaultGateSettings.failureBurst,
    description: "That burst. At least 1."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  clientAddressHeader: Setting.declare({
    name: "API_CLIENT_ADDRESS_HEADER",
    default: defaultGateSettings.clientAddressHeader,
    shown: "(none)",
    description: "The header a trusted reverse proxy writes the client's address in (for example `x-forwarded-for`; its last entry is used). Unset: the connection's peer, which behind a proxy is the proxy for every client. Set it only when every request comes through that proxy."
  }, (name) => Config.string(name).pipe(Config.map((header) => header.trim().toLowerCase()))),
  requestDeadline: Setting.declare({
    name: "API_REQUEST_DEADLINE_MS",
    default: defaultGateSettings.requestDeadline,
    description: "Request deadline (504 `REQUEST_TIMEOUT`); the request's work is interrupted and its transaction rolled back. At least 1."
  }, (name) => ConfigValue.millis(name, { min: 1 }))
}

export const gateSettingsConfig: Config.Config<GateSettings> = Config.all({
  ...gateSettingDeclarations,
  timestampWindowSeconds: Config.succeed(defaultGateSettings.timestampWindowSeconds),
  credentialCacheTtl: Config.succeed(defaultGateSettings.credentialCacheTtl),
  unknownAppCacheTtl: Config.succeed(defaultGateSettings.unknownAppCacheTtl)
})

export class Gate extends Context.Tag("@collector/http-server/GateSettings")<Gate, GateSettings>() {
  /** `settings` over the defaults. */
  static readonly layer = (settings: Partial<GateSettings> = {}) => Layer.succeed(Gate, { ...defaultGateSettings, ...settings })
  /** The settings of `config` (by default the API_* variables). */
  static readonly layerConfig = (config: Config.Config<GateSettings> = gateSettingsConfig) => Layer.effect(Gate, config)
}
