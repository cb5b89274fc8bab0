import { SqlError } from "@effect/sql/SqlError"
import { Effect, Redacted } from "effect"
import pg from "pg"
import { type HostPort, type MultiHostUrl, tlsOptionsOf } from "./MultiHostUrl.js"
import { makePrimarySelector, type PrimarySelector } from "./PrimarySelector.js"

// libpq waits for a host without limit; a failover list must move on from a host that is gone.
const defaultConnectTimeoutSeconds = 5

/** SQLSTATE read_only_sql_transaction: the server was demoted or fenced under an open connection. */
const readOnlyTransaction = "25006"

/**
 * A node-postgres client whose connection goes to the server the selector holds suitable at the
 * moment it connects. pg's Pool makes one per new connection, so every new connection follows a
 * failover; TLS checks that server's name because pg passes the host it connects to as servername.
 */
const failoverClientClass = (selector: PrimarySelector, connectTimeoutMs: number, open: Set<FailoverConnection>) =>
  class FailoverClient extends pg.Client implements FailoverConnection {
    server: HostPort | undefined

    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs })
    }

    override connect(): Promise<pg.Client>
    override connect(callback: ((err: Error) => void) | ((err: null, client: pg.Client) => void)): void
    override connect(callback?: ((err: Error) => void) | ((err: null, client: pg.Client) => void)): Promise<pg.Client> | void {
      const connected = this.connectToSelected().then(() => this as pg.Client)
      if (callback === undefined) return connected
      const done = callback as (err: Error | null, client?: pg.Client) => void
      connected.then((client) => done(null, client), (error: Error) => done(error))
    }

    private async connectToSelected(): Promise<void> {
      const server = await selector.current()
      const self = this as unknown as { host: string; port: number; connectionParameters: { host: string; port: number } }
      self.host = server.host
      self.port = server.port
      self.connectionParameters.host = server.host
      self.connectionParameters.port = server.port
      // A lost connection (the server died or was shut down) sends the next connection to the list again.
      this.on("error", () => selector.invalidate(server))
      try {
        await super.connect()
      } catch (error) {
        selector.invalidate(server)
        throw error
      }
      this.server = server
      open.add(this)
      this.once("end", () => open.delete(this))
      socketOf(this).on("errorMessage", (message: { code?: string }) => {
        if (message.code !== readOnlyTransaction) return
        selector.invalidate(server)
        // Every connection to that server would fail its next write the same way: all are broken
        // off once this error has reached its caller, and the pool drops them as any lost
        // connection (idle ones at once, the ones in use when they come back).
        setImmediate(() => {
          for (const other of open) if (other.server === server) other.breakOff()
        })
      })
    }

    breakOff() {
      socketOf(this).stream.destroy()
    }
  }

/** An open connection of the failover pool. */
interface FailoverConnection {
  /** The server it is connected to. */
  readonly server: HostPort | undefined
  /** Closes its socket: node-postgres then reports it lost and the pool discards it. */
  readonly breakOff: () => void
}

// node-postgres' Connection: its protocol messages and socket are not part of the typed surface.
const socketOf = (client: object) =>
  (client as { connection: { on: (event: string, listener: (message: { code?: string }) => void) => void; stream: { destroy: () => void } } }).connection

/**
 * A pg Pool over the servers of a multi-host `DATABASE_URL`: new connections go to the current
 * read-write server (or primary, or any, per `target_session_attrs`); connections that broke or
 * hit a read-only server are dropped by the pool and not reused. Ready when one query answered.
 */
export const acquireFailoverPool = (url: MultiHostUrl, options: { readonly maxConnections: number; readonly applicationName: string }) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const connectTimeoutMs = (url.connectTimeoutSeconds ?? defaultConnectTimeoutSeconds) * 1000
        const connection: pg.ClientConfig = {
          user: url.user,
          password: url.password === undefined ? undefined : Redacted.value(url.password),
          database: url.database,
          ssl: tlsOptionsOf(url),
          application_name: options.applicationName,
          connectionTimeoutMillis: connectTimeoutMs
        }
        const selector = makePrimarySelector(url.hosts, url.targetSessionAttrs, connection)
        const { connectionTimeoutMillis: _perHost, ...poolConnection } = connection
        const open = new Set<FailoverConnection>()
        const pool = new pg.Pool({ ...poolConnection, max: options.maxConnections, Client: failoverClientClass(selector, connectTimeoutMs, open) })
        // Idle connections that break report here; the pool has already dropped them.
        pool.on("error", () => {})
        try {
          await pool.query("SELECT 1")
        } catch (error) {
          await pool.end().catch(() => undefined)
          throw error
        }
        return pool
      },
      catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
  )
