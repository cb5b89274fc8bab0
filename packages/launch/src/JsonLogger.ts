import { Inspectable, Logger } from "effect"

const isEmpty = (record: Record<string, unknown>) => Object.keys(record).length === 0

/**
 * One JSON object per line on standard output: `timestamp`, `logLevel`, `message`, and only when
 * they hold something, `annotations`, `spans` and `cause`. Effect's own JSON logger also writes
 * empty `spans` and a `fiberId` on every line, which are noise in a collector.
 */
export const jsonLogger = Logger.withConsoleLog(
  Logger.map(Logger.structuredLogger, ({ annotations, cause, message, logLevel, spans, timestamp }) =>
    Inspectable.stringifyCircular({
      timestamp,
      logLevel,
      message,
      ...(isEmpty(annotations) ? {} : { annotations }),
      ...(isEmpty(spans) ? {} : { spans }),
      ...(cause === undefined ? {} : { cause })
    }))
)
