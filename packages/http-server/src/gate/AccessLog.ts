import { Context, Layer } from "effect"

export interface AccessEntry {
  readonly trace_id: string
  readonly app_id: string
  readonly method: string
  readonly route: string
  readonly status: number
  readonly duration_ms: number
}

/**
 * One JSON line per request, in the shape of Effect's JSON logger. Written directly rather
 * than through the logger, whose per-line bookkeeping was a large share of a small request.
 * Only these fields are ever written: no header, body or query text can reach the line.
 */
export class AccessLog extends Context.Tag("@collector/http-server/AccessLog")<
  AccessLog,
  { readonly write: (entry: AccessEntry) => void }
>() {
  static readonly to = (sink: (line: string) => void) =>
    Layer.succeed(AccessLog, {
      write: (entry) =>
        sink(JSON.stringify({ message: "request", logLevel: "INFO", timestamp: new Date().toISOString(), annotations: entry }))
    })

  static readonly stdout = AccessLog.to((line) => process.stdout.write(`${line}\n`))

  /** One line per request for a person at a terminal (`LOG_FORMAT=pretty`), in the pretty logger's style. */
  static readonly prettyTo = (sink: (line: string) => void) =>
    Layer.succeed(AccessLog, {
      write: (entry) =>
        sink(
          `[${new Date().toISOString().slice(11, 23)}] INFO request: ${entry.method} ${entry.route} ${entry.status} ${entry.duration_ms} ms ` +
            `app_id=${entry.app_id} trace_id=${entry.trace_id}`
        )
    })

  static readonly prettyStdout = AccessLog.prettyTo((line) => process.stdout.write(`${line}\n`))
}
