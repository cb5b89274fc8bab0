import { Context, type Exit, Option, Tracer } from "effect"

/** A span that records nothing and is never exported; what runs inside it is not exported either. */
class DroppedSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly sampled = false
  readonly spanId: string
  readonly traceId: string
  readonly attributes = new Map<string, unknown>()
  readonly links: ReadonlyArray<Tracer.SpanLink> = []
  status: Tracer.SpanStatus
  constructor(
    readonly name: string,
    readonly parent: Option.Option<Tracer.AnySpan>,
    readonly kind: Tracer.SpanKind,
    startTime: bigint
  ) {
    this.traceId = Option.isSome(parent) ? parent.value.traceId : "00000000000000000000000000000000"
    this.spanId = "0000000000000000"
    this.status = { _tag: "Started", startTime }
  }
  get context() {
    return Context.empty()
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>) {
    this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
  }
  attribute() {}
  event() {}
  addLinks() {}
}

/**
 * `tracer`, except that a SQL statement or transaction outside any other span is not exported,
 * nor anything inside it. With a tracer on, @effect/sql makes a span per statement; the worker's
 * loops poll the database several times a second per network (the notifier every 250 ms), each
 * poll a trace of its own. Inside a request, a sweep step or a delivery a statement is kept.
 */
export const dropDetachedStatements = (tracer: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    span(name, parent, context, links, startTime, kind, options) {
      const detached = Option.isNone(parent) ? name.startsWith("sql.") : parent.value instanceof DroppedSpan
      return detached ? new DroppedSpan(name, parent, kind, startTime) : tracer.span(name, parent, context, links, startTime, kind, options)
    },
    context: (f, fiber) => tracer.context(f, fiber)
  })
