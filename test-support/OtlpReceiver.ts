import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"

/** One exported span as an OTLP/JSON export carries it (IDs in hex), with its resource's attributes. */
export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: Record<string, unknown>
  readonly status: { readonly code?: number; readonly message?: string }
  readonly resource: Record<string, unknown>
}

/** One POST the receiver got, whatever its path and body. */
export interface ReceivedExport {
  readonly path: string
  readonly contentType: string
  readonly body: Buffer
}

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: string | number
  readonly boolValue?: boolean
  readonly doubleValue?: number
}

const valueOf = (value: OtlpValue): unknown =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue ?? value.doubleValue)

const attributesOf = (list: ReadonlyArray<{ readonly key: string; readonly value: OtlpValue }> | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]))

const read = (request: IncomingMessage) =>
  new Promise<Buffer>((done, fail) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => done(Buffer.concat(chunks)))
    request.on("error", fail)
  })

/**
 * An OpenTelemetry collector stand-in: a node:http server that answers every POST with 200 and
 * keeps it; the spans of OTLP/JSON exports to `/v1/traces` are decoded, protobuf ones are kept as
 * bytes. `port` 0 takes a free one.
 */
export const startOtlpReceiver = async (port = 0, host = "127.0.0.1") => {
  const exports: Array<ReceivedExport> = []
  const spans: Array<ReceivedSpan> = []
  const server = createServer((request, response) => {
    void read(request).then((body) => {
      const contentType = request.headers["content-type"] ?? ""
      exports.push({ path: request.url ?? "", contentType, body })
      if (request.url === "/v1/traces" && contentType.startsWith("application/json")) {
        for (const resourceSpans of JSON.parse(body.toString("utf8")).resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes)
          for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
            for (const span of scopeSpans.spans ?? []) {
              spans.push({ ...span, attributes: attributesOf(span.attributes), status: span.status ?? {}, resource })
            }
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((done, fail) => {
    server.once("error", fail)
    server.listen(port, host, () => done())
  })
  const url = `http://${host}:${(server.address() as AddressInfo).port}`
  /** Resolves with what `pick` finds among the spans received so far, polling until `timeoutMs`. */
  const waitFor = async <A>(pick: (spans: ReadonlyArray<ReceivedSpan>) => A | undefined, timeoutMs = 15_000): Promise<A> => {
    const until = Date.now() + timeoutMs
    while (Date.now() < until) {
      const found = pick(spans)
      if (found !== undefined) return found
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`no such span arrived within ${timeoutMs} ms (${spans.length} spans received: ${JSON.stringify(spans.map(({ name, traceId, spanId, parentSpanId, kind }) => ({ name, traceId, spanId, parentSpanId, kind })))})`)
  }
  const close = () => new Promise<void>((done) => server.close(() => done()))
  return { url, spans, exports, waitFor, close } as const
}
