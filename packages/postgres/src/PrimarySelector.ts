import pg from "pg"
import { isTransientDriverError } from "./DatabaseStartWait.js"
import type { HostPort, TargetSessionAttrs } from "./MultiHostUrl.js"

/**
 * No server of the list takes writes right now (the primary is gone and no standby is promoted
 * yet). SQLSTATE 08001 (unable to establish a connection) so that the start waits for it and
 * tenants get a 503 with Retry-After, as for a server that is down.
 */
export class NoWritableServer extends Error {
  readonly code = "08001"
  override readonly name = "NoWritableServer"
}

export interface PrimarySelector {
  /** The server new connections go to: the last one found suitable, or the first suitable one of the list. */
  readonly current: () => Promise<HostPort>
  /** This server failed or refused a write: the next connection probes the list again. */
  readonly invalidate: (server: HostPort) => void
}

const describe = (server: HostPort) => `${server.host}:${server.port}`

/**
 * Picks the server that new connections use, as libpq does for `target_session_attrs`: the hosts
 * are tried in order and the first that qualifies is kept until it fails. `read-write` asks
 * `SHOW transaction_read_only` (a primary fenced read-only does not qualify), `primary` asks
 * `pg_is_in_recovery()`, `any` takes the first that answers.
 */
export const makePrimarySelector = (
  hosts: ReadonlyArray<HostPort>,
  attrs: TargetSessionAttrs,
  connection: pg.ClientConfig
): PrimarySelector => {
  let chosen: HostPort | undefined
  let probing: Promise<HostPort> | undefined

  const qualifies = async (server: HostPort): Promise<string | undefined> => {
    const client = new pg.Client({ ...connection, host: server.host, port: server.port })
    // A probe's socket may break after its answer; it is closed anyway.
    client.on("error", () => {})
    try {
      await client.connect()
      if (attrs === "any") return undefined
      if (attrs === "primary") {
        const result = await client.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby")
        return result.rows[0]?.standby === false ? undefined : "in recovery (a standby)"
      }
      const result = await client.query<{ transaction_read_only: string }>("SHOW transaction_read_only")
      return result.rows[0]?.transaction_read_only === "off" ? undefined : "read-only"
    } finally {
      await client.end().catch(() => undefined)
    }
  }

  const probe = async (): Promise<HostPort> => {
    const reasons: Array<string> = []
    let refusal: unknown
    for (const server of hosts) {
      try {
        const reason = await qualifies(server)
        if (reason === undefined) {
          chosen = server
          return server
        }
        reasons.push(`${describe(server)} is ${reason}`)
      } catch (error) {
        const cause = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; message?: unknown }
        // A wrong password or a missing database is no failover: it is reported as it is, not waited for.
        if (!isTransientDriverError(cause)) refusal ??= error
        reasons.push(`${describe(server)}: ${typeof cause.message === "string" ? cause.message : String(error)}`)
      }
    }
    if (refusal !== undefined) throw refusal
    throw new NoWritableServer(`no server of DATABASE_URL is ${attrs === "any" ? "reachable" : attrs} (target_session_attrs=${attrs}): ${reasons.join("; ")}`)
  }

  return {
    current: () => {
      if (chosen !== undefined) return Promise.resolve(chosen)
      // Connections opened together wait for one probe of the list.
      probing ??= probe().finally(() => (probing = undefined))
      return probing
    },
    invalidate: (server) => {
      if (chosen !== undefined && chosen.host === server.host && chosen.port === server.port) chosen = undefined
    }
  }
}
