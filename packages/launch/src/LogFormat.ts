import { ConfigValue, Setting } from "@collector/core"

export type LogFormat = "json" | "pretty"

const logFormats: ReadonlyArray<LogFormat> = ["json", "pretty"]

/**
 * `LOG_FORMAT`: `json` (one object per line, for a collector) or `pretty` (for a person). Without
 * it, pretty when standard output is a terminal and JSON otherwise (a service manager, a pipe).
 */
export const logFormatConfig = (isTerminal: boolean): Setting.Setting<LogFormat> =>
  Setting.declare({
    name: "LOG_FORMAT",
    default: isTerminal ? "pretty" : "json",
    shown: "`pretty` on a terminal, else `json`",
    description:
      "`json`: one object per line on stdout (`timestamp`, `logLevel`, `message`, and `annotations`, `spans`, `cause` when they hold something); `pretty`: for a person, the API's request lines too (`[10:42:43.467] INFO request: POST /open/v1/wallets 200 3.2 ms app_id=… trace_id=…`). Each process writes `<process> started` once it serves (version, ports, networks and their nodes, storage; never a secret), `<process> stopping` on SIGTERM or SIGINT and `<process> stopped` when everything it started has stopped. A node outage is one warning when it begins and one line when it ends (how long, how many passes failed), per component and network."
  }, (name) => ConfigValue.oneOf(name, logFormats))
