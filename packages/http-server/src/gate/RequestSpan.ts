import { Clock, Effect, Exit, FiberRef, type Tracer } from "effect"
import type { RouteMatch } from "./RouteTable.js"

/**
 * The span of one request, made by the gate (the platform's own server span is off: it would
 * record every header, the query and a caller's `traceparent`). Only while a tracer is on: with
 * tracing off there is no span at all and the trace ID is drawn as before. Always a new trace, so
 * its ID is ours and one per request whatever the caller sends. It records what the access line
 * does and no more: method, route pattern, status, app ID; never a header, the path or the query.
 */
export const startRequestSpan = (method: string, route: RouteMatch): Effect.Effect<Tracer.Span | undefined> =>
  Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (enabled) => {
    if (!enabled) return Effect.succeed(undefined)
    const found = route._tag === "Found"
    return Effect.makeSpan(found ? `${method} ${route.route.path}` : method, {
      kind: "server",
      root: true,
      captureStackTrace: false,
      attributes: found ? { "http.request.method": method, "http.route": route.route.path } : { "http.request.method": method }
    })
  })

/** Runs the request's work under its span, so that SQL statements and the like are its children. */
export const inRequestSpan = (span: Tracer.Span | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  span === undefined ? effect : Effect.withParentSpan(effect, span)

/** Ends the span with the response's status: a 5xx is an error (OpenTelemetry's rule for servers). */
export const endRequestSpan = (span: Tracer.Span | undefined, status: number, appId: string): Effect.Effect<void> =>
  span === undefined
    ? Effect.void
    : Effect.map(Clock.currentTimeNanos, (now) => {
      span.attribute("http.response.status_code", status)
      if (appId !== "") span.attribute("collector.app_id", appId)
      if (status >= 500) span.attribute("error.type", String(status))
      span.end(now, status >= 500 ? Exit.fail(`HTTP ${status}`) : Exit.void)
    })
