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
}
