import { FetchHttpClient, Headers, HttpClient } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { dropDetachedStatements } from "./DetachedStatements.js"
import type { TracingSettings } from "./TracingConfig.js"
import { version } from "./Version.js"

/**
 * Spans exported over OTLP/HTTP by @effect/opentelemetry's OtlpTracer (Effect's own spans, no
 * OpenTelemetry SDK in between): batched for `exportInterval` (or 1000 spans), sent on their own
 * fiber with tracing off, and flushed when the process stops (at most 3 s). A batch the collector
 * does not take is tried three more times a second apart, then dropped, and spans are dropped for a
 * minute (logged at DEBUG). Loaded only when tracing is on.
 */
export const tracingLayer = (settings: TracingSettings): Layer.Layer<never, Error> =>
  Layer.unwrapEffect(Effect.tryPromise({
    try: () => Promise.all([import("@effect/opentelemetry/OtlpTracer"), import("@effect/opentelemetry/OtlpSerialization")]),
    catch: (error) => new Error(`traces: @effect/opentelemetry could not be loaded (${String(error)})`)
  }).pipe(Effect.map(([OtlpTracer, OtlpSerialization]) => {
    const tracer = OtlpTracer.make({
      url: settings.url,
      resource: { serviceName: settings.serviceName, serviceVersion: version },
      headers: Redacted.value(settings.headers),
      exportInterval: settings.exportInterval
    })
    return Layer.unwrapScoped(Effect.map(tracer, (tracer) => Layer.setTracer(dropDetachedStatements(tracer)))).pipe(
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(settings.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf)
    )
  })))

/**
 * What outgoing HTTP clients (the energy provider's) may put into a trace while tracing is on:
 * no header values (a provider's API key travels in a header of its own name, which the
 * platform's default list does not redact), and no trace context sent to a third party.
 */
export const outgoingRequestPrivacy = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.locally(Headers.currentRedactedNames, [/./]),
    Effect.locally(HttpClient.currentTracerPropagation, false)
  )
