import { Effect, type Exit, FiberRef, type Tracer } from "effect"

/**
 * `Effect.withSpan`, only while a tracer is on: the processes run with tracing off unless an
 * exporter is configured, and then not even a no-op span is made (a no-op span still copies the
 * fiber's context, on paths such as the scanner's node requests). No stack trace is captured.
 * `outcome` adds attributes from how the work ended.
 */
export const traced = (
  name: string,
  options: Tracer.SpanOptions = {},
  outcome?: (exit: Exit.Exit<unknown, unknown>) => Record<string, unknown>
) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (enabled): Effect.Effect<A, E, R> => {
    if (!enabled) return effect
    const annotated = outcome === undefined ? effect : Effect.onExit(effect, (exit) => Effect.annotateCurrentSpan(outcome(exit)))
    return Effect.withSpan(annotated, name, { captureStackTrace: false, ...options })
  })
