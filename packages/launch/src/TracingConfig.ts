import { Setting } from "@collector/core"
import { Config, ConfigError, Duration, Either, Option, Redacted } from "effect"

/** How spans are written to the collector: OTLP over HTTP, as protobuf (the OTLP default) or JSON. */
export type OtlpProtocol = "http/protobuf" | "http/json"

export interface TracingSettings {
  /** Where spans are POSTed: the traces endpoint as given, or the base endpoint + `/v1/traces`. */
  readonly url: string
  readonly protocol: OtlpProtocol
  /** Sent with every export (a collector's API key): never logged. */
  readonly headers: Redacted.Redacted<Readonly<Record<string, string>>>
  /** `service.name` of every span; the process's name (`api`, `worker`, `service`) unless set. */
  readonly serviceName: string
  /** How long finished spans wait before they are sent together. */
  readonly exportInterval: Duration.Duration
}

const invalid = (message: string) => Either.left(ConfigError.InvalidData([], message))

/** A variable that counts as unset when empty (`OTEL_X=` in an env file). */
const optionalText = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map(Option.filter((text) => text.trim() !== "")), Config.map(Option.map((text) => text.trim())))

const isHttpUrl = (text: string) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol)

const endpoint = (name: string) =>
  optionalText(name).pipe(
    Config.mapOrFail((text) =>
      Option.isNone(text) || isHttpUrl(text.value)
        ? Either.right(text)
        : invalid(`${name} must be an http(s) URL such as http://localhost:4318`)
    )
  )

/**
 * The traces endpoint: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, or else
 * `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` appended (as the OpenTelemetry exporters do).
 */
const baseEndpoint = Setting.declare({
  name: "OTEL_EXPORTER_OTLP_ENDPOINT",
  shown: "(none: tracing off)",
  description:
    "The collector's OTLP/HTTP base URL, e.g. `http://localhost:4318`; spans go to `<it>/v1/traces`. An empty value counts as unset."
}, endpoint)

const tracesEndpoint = Setting.declare({
  name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  description: "A full URL for spans, used as given (it wins over the one above, and also turns tracing on)."
}, endpoint)

const tracesUrl: Config.Config<Option.Option<string>> = Config.all([tracesEndpoint, baseEndpoint]).pipe(
  Config.map(([traces, base]) => Option.orElse(traces, () => Option.map(base, (url) => `${url.replace(/\/+$/, "")}/v1/traces`)))
)

const protocolOf = (name: string) =>
  optionalText(name).pipe(
    Config.mapOrFail((text) => {
      if (Option.isNone(text)) return Either.right(Option.none<OtlpProtocol>())
      const value = text.value.toLowerCase()
      if (value === "http/protobuf" || value === "http/json") return Either.right(Option.some<OtlpProtocol>(value))
      return invalid(`${name} must be http/protobuf or http/json${value === "grpc" ? " (gRPC is not supported: use the collector's HTTP port, 4318)" : ""}`)
    })
  )

const baseProtocol = Setting.declare({
  name: "OTEL_EXPORTER_OTLP_PROTOCOL",
  shown: "`http/protobuf`",
  description:
    "`http/protobuf` or `http/json`. `grpc` is refused: use the collector's HTTP port (4318). `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` wins over it."
}, protocolOf)

const tracesProtocol = Setting.declare({
  name: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  shown: "`OTEL_EXPORTER_OTLP_PROTOCOL`",
  description: "The protocol for spans, as `OTEL_EXPORTER_OTLP_PROTOCOL` (which it wins over)."
}, protocolOf)

const protocol: Config.Config<OtlpProtocol> = Config.all([tracesProtocol, baseProtocol]).pipe(
  Config.map(([traces, base]) => Option.getOrElse(Option.orElse(traces, () => base), (): OtlpProtocol => "http/protobuf"))
)

/** `key=value,key2=value2`, values percent-encoded (the OpenTelemetry format of `OTEL_EXPORTER_OTLP_HEADERS`). */
export const parseOtlpHeaders = (text: string): Record<string, string> | undefined => {
  const headers: Record<string, string> = {}
  for (const item of text.split(",")) {
    if (item.trim() === "") continue
    const at = item.indexOf("=")
    const key = item.slice(0, at).trim()
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) return undefined
    try {
      headers[key.toLowerCase()] = decodeURIComponent(item.slice(at + 1).trim())
    } catch {
      return undefined
    }
  }
  return headers
}

// The value is never put in the message: it usually holds a collector's API key.
const headersOf = (name: string) =>
  Config.option(Config.redacted(name)).pipe(
    Config.mapOrFail((secret) => {
      if (Option.isNone(secret)) return Either.right<Record<string, string>>({})
      const parsed = parseOtlpHeaders(Redacted.value(secret.value))
      return parsed === undefined ? invalid(`${name} must be key=value pairs separated by commas (values percent-encoded)`) : Either.right(parsed)
    })
  )

const baseHeaders = Setting.declare({
  name: "OTEL_EXPORTER_OTLP_HEADERS",
  description:
    "Headers sent with every export, `key=value,key2=value2` with values percent-encoded (a hosted collector's API key). Never logged. `OTEL_EXPORTER_OTLP_TRACES_HEADERS` adds to it and wins on the same key."
}, headersOf)

const tracesHeaders = Setting.declare({
  name: "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  description: "More headers for span exports, as `OTEL_EXPORTER_OTLP_HEADERS`; on the same key this one wins. Never logged."
}, headersOf)

const headers: Config.Config<Redacted.Redacted<Readonly<Record<string, string>>>> = Config.all([baseHeaders, tracesHeaders]).pipe(Config.map(([base, traces]) => Redacted.make({ ...base, ...traces })))

const truthy = ["true", "yes", "on", "1"]

/** `OTEL_SDK_DISABLED=true` switches tracing off whatever the endpoint says. */
const sdkDisabled = Setting.declare({
  name: "OTEL_SDK_DISABLED",
  shown: "`false`",
  description: "`true` turns tracing off whatever the endpoint says."
}, (name) => optionalText(name).pipe(Config.map(Option.exists((text) => truthy.includes(text.toLowerCase())))))

const tracesExporter = Setting.declare({
  name: "OTEL_TRACES_EXPORTER",
  shown: "`otlp`",
  description: "`none` turns tracing off whatever the endpoint says."
}, (name) =>
  optionalText(name).pipe(
    Config.mapOrFail((text) => {
      const value = Option.getOrElse(text, () => "otlp").toLowerCase()
      return value === "otlp" || value === "none" ? Either.right(value) : invalid(`${name} must be otlp or none`)
    })
  ))

const exportInterval = Setting.declare({
  name: "OTEL_BSP_SCHEDULE_DELAY",
  shown: "`5000`",
  description: "Milliseconds finished spans wait to be sent together (10 to 600000); 1000 waiting are sent at once."
}, (name) =>
  optionalText(name).pipe(
    Config.mapOrFail((text) => {
      if (Option.isNone(text)) return Either.right(Duration.seconds(5))
      const ms = /^\d+$/.test(text.value) ? Number(text.value) : Number.NaN
      return Number.isSafeInteger(ms) && ms >= 10 && ms <= 600_000
        ? Either.right(Duration.millis(ms))
        : invalid(`${name} must be a whole number from 10 to 600000 (milliseconds)`)
    })
  ))

const serviceName = Setting.declare({
  name: "OTEL_SERVICE_NAME",
  shown: "the process: `api`, `worker` or `service`",
  description: "`service.name` of the spans; `service.version` is the release."
}, optionalText)

/**
 * `OTEL_RESOURCE_ATTRIBUTES` is read by the OpenTelemetry exporter (`@effect/opentelemetry`), not
 * here; it is declared so that it is documented with the others.
 */
export const resourceAttributes = Setting.declare({
  name: "OTEL_RESOURCE_ATTRIBUTES",
  description: "More resource attributes, `key=value,…` (e.g. `deployment.environment=prod,host.name=api-1`)."
}, optionalText)

/** Every tracing variable, in the order the docs list them. */
export const tracingSettings = [
  baseEndpoint,
  tracesEndpoint,
  baseProtocol,
  tracesProtocol,
  baseHeaders,
  tracesHeaders,
  serviceName,
  resourceAttributes,
  exportInterval,
  tracesExporter,
  sdkDisabled
] as const

/**
 * The process's tracing, from the standard OpenTelemetry variables: none unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, and none when
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. Every variable is checked either way, so
 * a typo stops the process even while tracing is off.
 */
export const tracingConfig = (processName: string): Config.Config<Option.Option<TracingSettings>> =>
  Config.all({
    url: tracesUrl,
    protocol,
    headers,
    serviceName: serviceName.pipe(Config.map(Option.getOrElse(() => processName))),
    exportInterval,
    disabled: sdkDisabled,
    exporter: tracesExporter
  }).pipe(
    Config.map(({ disabled, exporter, url, ...rest }) =>
      disabled || exporter === "none" ? Option.none() : Option.map(url, (url): TracingSettings => ({ url, ...rest }))
    )
  )
