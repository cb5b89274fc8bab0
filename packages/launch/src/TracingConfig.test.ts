import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Option, Redacted } from "effect"
import { parseOtlpHeaders, tracingConfig } from "./TracingConfig.js"

const read = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(tracingConfig("worker"), ConfigProvider.fromMap(new Map(Object.entries(env))))))

const settingsOf = (env: Record<string, string>) => {
  const result = read(env)
  if (Either.isLeft(result)) throw new Error(String(result.left))
  return result.right
}

const messageOf = (env: Record<string, string>) => {
  const result = read(env)
  return Either.isLeft(result) ? String(result.left) : "no error"
}

describe("tracingConfig", () => {
  it("is off without an endpoint, with an empty one, and when switched off", () => {
    expect(settingsOf({})).toEqual(Option.none())
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toEqual(Option.none())
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toEqual(Option.none())
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" })).toEqual(Option.none())
  })

  it("sends to <endpoint>/v1/traces as protobuf every 5 s under the process's name by default", () => {
    const settings = Option.getOrThrow(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }))
    expect(settings.url).toBe("http://collector:4318/v1/traces")
    expect(settings.protocol).toBe("http/protobuf")
    expect(settings.serviceName).toBe("worker")
    expect(Duration.toMillis(settings.exportInterval)).toBe(5000)
    expect(Redacted.value(settings.headers)).toEqual({})
  })

  it("takes the traces endpoint as given, the traces protocol and headers over the general ones", () => {
    const settings = Option.getOrThrow(settingsOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp/spans",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "HTTP/JSON",
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=general,x-tenant=a",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "X-Api-Key=tr%2Caces",
      OTEL_SERVICE_NAME: "collector-worker-1",
      OTEL_BSP_SCHEDULE_DELAY: "250"
    }))
    expect(settings.url).toBe("https://traces.example/otlp/spans")
    expect(settings.protocol).toBe("http/json")
    expect(Redacted.value(settings.headers)).toEqual({ "x-api-key": "tr,aces", "x-tenant": "a" })
    expect(settings.serviceName).toBe("collector-worker-1")
    expect(Duration.toMillis(settings.exportInterval)).toBe(250)
    // The headers (a collector's key) are never shown.
    expect(String(settings.headers)).not.toContain("aces")
  })

  it("refuses a bad value with a sentence naming its variable, even while tracing is off", () => {
    expect(messageOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toContain("OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL such as http://localhost:4318")
    expect(messageOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toContain(
      "OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (gRPC is not supported: use the collector's HTTP port, 4318)"
    )
    expect(messageOf({ OTEL_BSP_SCHEDULE_DELAY: "soon" })).toContain("OTEL_BSP_SCHEDULE_DELAY must be a whole number from 10 to 600000 (milliseconds)")
    expect(messageOf({ OTEL_TRACES_EXPORTER: "zipkin" })).toContain("OTEL_TRACES_EXPORTER must be otlp or none")
    const headers = messageOf({ OTEL_EXPORTER_OTLP_HEADERS: "secret-token-without-a-name" })
    expect(headers).toContain("OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs")
    expect(headers).not.toContain("secret-token")
  })

  it("reads headers as OpenTelemetry writes them", () => {
    expect(parseOtlpHeaders("a=1, b = two%20words ,")).toEqual({ a: "1", b: "two words" })
    expect(parseOtlpHeaders("authorization=Basic abc==")).toEqual({ authorization: "Basic abc==" })
    expect(parseOtlpHeaders("=x")).toBeUndefined()
    expect(parseOtlpHeaders("bad key=x")).toBeUndefined()
    expect(parseOtlpHeaders("a=%E0%A4%A")).toBeUndefined()
  })
})
