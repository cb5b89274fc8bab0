import { ConfigValue, Setting } from "@collector/core"
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

const operatorHost = (name: string) =>
  Config.string(name).pipe(
    Config.mapOrFail((text) =>
      text.trim() === "" || /\s/.test(text.trim())
        ? Either.left(ConfigError.InvalidData([], `${name} must be an address to listen on, such as 127.0.0.1, ::1 or 0.0.0.0`))
        : Either.right(text.trim())
    )
  )

/** `OPERATOR_PORT` (default 9464; 0 turns the endpoints off) and `OPERATOR_HOST` (default 127.0.0.1). */
export const operatorSettings = {
  port: Setting.declare({
    name: "OPERATOR_PORT",
    default: defaultOperatorSettings.port,
    description: "Port of the operator endpoints (0 to 65535). `0` turns them off: nothing is served, and the start line says `\"operator\":\"off\"`. Processes on one host each need their own; a taken port stops the start with one line."
  }, (name) => ConfigValue.integer(name, { min: 0, max: 65535 })),
  host: Setting.declare({
    name: "OPERATOR_HOST",
    default: defaultOperatorSettings.host,
    description: "Address they are bound to. Loopback unless you choose otherwise (`0.0.0.0`, `::`, or a private interface's address): they need no credentials."
  }, (name) => operatorHost(name))
}

export const operatorConfig: Config.Config<OperatorSettings> = Config.all(operatorSettings)

/** The start line's `operator` field: where the endpoints are, or `off`. */
export const describeOperator = (settings: OperatorSettings) =>
  settings.port === 0 ? "off" : `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${settings.port}`
