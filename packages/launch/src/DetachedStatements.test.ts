import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Tracer } from "effect"
import { dropDetachedStatements } from "./DetachedStatements.js"

/** A tracer keeping the name and trace of each span it ended (launch depends on no package of ours). */
const makeRecordingTracer = () => {
  const ended: Array<{ readonly name: string; readonly traceId: string }> = []
  let next = 0
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      const traceId = Option.isSome(parent) ? parent.value.traceId : `trace-${++next}`
      return {
        _tag: "Span", name, traceId, spanId: `span-${++next}`, parent, context, links, kind, sampled: true,
        status: { _tag: "Started", startTime }, attributes: new Map(),
        end: () => void ended.push({ name, traceId }), attribute: () => {}, event: () => {}, addLinks: () => {}
      }
    },
    context: (f) => f()
  })
  return { tracer, ended }
}

const statement = (name = "sql.execute") => Effect.void.pipe(Effect.withSpan(name))

describe("dropDetachedStatements", () => {
  it.effect("drops SQL outside any span and everything inside it; keeps SQL inside a span and every other span", () =>
    Effect.gen(function*() {
      const recording = makeRecordingTracer()
      yield* Effect.gen(function*() {
        // A poll of the worker's: a statement, and a transaction with statements, outside any span.
        yield* statement()
        yield* statement().pipe(Effect.zipRight(statement()), Effect.withSpan("sql.transaction"))
        // A step: its statements are kept.
        yield* statement().pipe(Effect.zipRight(statement().pipe(Effect.withSpan("sql.transaction"))), Effect.withSpan("sweep.step"))
        // Spans of anything else outside a span (a node call) are kept.
        yield* Effect.void.pipe(Effect.withSpan("tron.node /wallet/getnowblock"))
      }).pipe(Effect.withTracer(dropDetachedStatements(recording.tracer)))
      const step = recording.ended.find((span) => span.name === "sweep.step")!
      expect(recording.ended.map((span) => span.name).sort()).toEqual(["sql.execute", "sql.execute", "sql.transaction", "sweep.step", "tron.node /wallet/getnowblock"])
      for (const span of recording.ended.filter((span) => span.name.startsWith("sql."))) expect(span.traceId).toBe(step.traceId)
    }))
})
