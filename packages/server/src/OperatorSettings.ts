import { ConfigValue } from "@collector/core"
import { Config, ConfigError, Either } from "effect"

export interface OperatorSettings {
  /** Where `/healthz`, `/readyz` and `/metrics` are served; 0: not served at all. */
  readonly port: number
  readonly host: string
}

/**
 * 9464 is the port OpenTelemetry's Prometheus exporter uses, so a scrape config written for it
 * finds this one. Loopback only: the endpoints need no credentials and tell how the service
 * runs, so they are opened to a network only by choice (`OPERATOR_HOST=0.0.0.0`).
 */
export const defaultOperatorSettings: OperatorSettings = { port: 9464, host: "127.0.0.1" }

/** `OPERATOR_PORT` (default 9464; 0 turns the endpoints off) and `OPERATOR_HOST` (default 127.0.0.1). */
export const operatorConfig: Config.Config<OperatorSettings> = Config.all({
  port: ConfigValue.integer("OPERATOR_PORT", { min: 0, max: 65535, default: defaultOperatorSettings.port }),
  host: Config.string("OPERATOR_HOST").pipe(
    Config.mapOrFail((text) =>
      text.trim() === "" || /\s/.test(text.trim())
        ? Either.left(ConfigError.InvalidData([], "OPERATOR_HOST must be an address to listen on, such as 127.0.0.1, ::1 or 0.0.0.0"))
        : Either.right(text.trim())
    ),
    Config.withDefault(defaultOperatorSettings.host)
  )
})

/** The start line's `operator` field: where the endpoints are, or `off`. */
export const describeOperator = (settings: OperatorSettings) =>
  settings.port === 0 ? "off" : `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${settings.port}`
