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

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be a positive integer`, validation: (n) => n > 0 }),
    Config.withDefault(fallback)
  )

export const GateSettingsConfig: Config.Config<GateSettings> = Config.all({
  maxBodyBytes: positive("API_MAX_BODY_BYTES", defaultGateSettings.maxBodyBytes),
  ratePerSecond: positive("API_RATE_PER_SECOND", defaultGateSettings.ratePerSecond),
  rateBurst: positive("API_RATE_BURST", defaultGateSettings.rateBurst),
  maxInFlight: positive("API_MAX_IN_FLIGHT", defaultGateSettings.maxInFlight),
  requestDeadline: positive("API_REQUEST_DEADLINE_MS", 15_000).pipe(Config.map(Duration.millis)),
  timestampWindowSeconds: Config.succeed(defaultGateSettings.timestampWindowSeconds),
  credentialCacheTtl: Config.succeed(defaultGateSettings.credentialCacheTtl)
})

export class Gate extends Context.Tag("@collector/http-server/GateSettings")<Gate, GateSettings>() {
  static readonly layer = (overrides: Partial<GateSettings> = {}) => Layer.succeed(Gate, { ...defaultGateSettings, ...overrides })
  static readonly layerFromConfig = Layer.effect(Gate, GateSettingsConfig)
}
