import { Config } from "effect"

export type LogFormat = "json" | "pretty"

const isLogFormat = (value: string): value is LogFormat => value === "json" || value === "pretty"

/**
 * `LOG_FORMAT`: `json` (one object per line, for a collector) or `pretty` (for a person). Without
 * it, pretty when standard output is a terminal and JSON otherwise (a service manager, a pipe).
 */
export const logFormatConfig = (isTerminal: boolean): Config.Config<LogFormat> =>
  Config.string("LOG_FORMAT").pipe(
    Config.validate({ message: "LOG_FORMAT must be json or pretty", validation: isLogFormat }),
    Config.withDefault<LogFormat>(isTerminal ? "pretty" : "json")
  )
