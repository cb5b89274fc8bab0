import { Context, type Exit, Layer, Option, Tracer } from "effect"

/** A span as a test reads it once ended. */
export interface RecordedSpan {
  readonly name: string
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  readonly kind: Tracer.SpanKind
  readonly attributes: ReadonlyMap<string, unknown>
  readonly exit: Exit.Exit<unknown, unknown>
}

const hex = (length: number) => Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16)).join("")

/**
 * A tracer that keeps every ended span in memory: for tests of which spans code makes while
 * tracing is on. `layer` sets it as the tracer (tracing is on by default in a test).
 */
export const makeRecordingTracer = () => {
  const ended: Array<RecordedSpan> = []
  const tracer = Tracer.make({
    span(name, parent, _context, links, startTime, kind) {
      const attributes = new Map<string, unknown>()
      const traceId = Option.isSome(parent) ? parent.value.traceId : hex(32)
      const spanId = hex(16)
      const span: Tracer.Span = {
        _tag: "Span",
        name,
        traceId,
        spanId,
        parent,
        context: Context.empty(),
        status: { _tag: "Started", startTime },
        attributes,
        links: [...links],
        sampled: true,
        kind,
        end(endTime, exit) {
          ;(span as { status: Tracer.SpanStatus }).status = { _tag: "Ended", startTime, endTime, exit }
          ended.push({ name, traceId, spanId, parentSpanId: Option.getOrUndefined(Option.map(parent, (p) => p.spanId)), kind, attributes, exit })
        },
        attribute(key, value) {
          attributes.set(key, value)
        },
        event() {},
        addLinks() {}
      }
      return span
    },
    context: (f) => f()
  })
  return { tracer, ended, layer: Layer.setTracer(tracer) } as const
}
