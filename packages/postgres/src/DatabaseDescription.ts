import { Option, Redacted } from "effect"
import { join, resolve } from "node:path"
import type { DatabaseSettings } from "./DatabaseConfig.js"
import { isMultiHostUrl, parseMultiHostUrl } from "./MultiHostUrl.js"

/** Where a process keeps its data, for its start line: the server and database, never the credentials. */
export const describeDatabase = (settings: DatabaseSettings): string =>
  Option.match(settings.url, {
    onNone: () => `embedded PostgreSQL in ${join(resolve(settings.dataDir), "pg")} on 127.0.0.1:${settings.embeddedPort}`,
    onSome: (url) => {
      if (isMultiHostUrl(Redacted.value(url))) {
        const multi = parseMultiHostUrl(Redacted.value(url))
        if (multi._tag === "Right") {
          const { database, hosts, targetSessionAttrs } = multi.right
          return `PostgreSQL at ${hosts.map((h) => `${h.host}:${h.port}`).join(",")}/${database ?? ""} (${targetSessionAttrs})`
        }
      }
      const parsed = new URL(Redacted.value(url))
      return `PostgreSQL at ${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`
    }
  })
