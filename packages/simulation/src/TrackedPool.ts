import { Effect } from "effect"
import pg from "pg"
import type { CutPhase, StepRun } from "./faults/ConnectionCuts.js"
import type { PendingWork } from "./PendingWork.js"

type Callback = (...results: Array<unknown>) => void

/** How long (real time) a reply may take before the run gives up on the database. */
const stuckAfterMillis = 60_000

/** What decides, at each statement, whether the connection is cut there (`ConnectionCuts`). */
export interface StatementCuts {
  /** The money step the running fiber is in, if any. */
  readonly current: () => StepRun | undefined
  /** Counts one statement of `step`: where the connection is cut at it, if it is. */
  readonly at: (step: StepRun) => CutPhase | undefined
}

// node-postgres' client internals a cut needs: its connection (socket and `end` event) and its backend's process ID.
interface ClientInternals {
  readonly processID: number
  readonly connection: { readonly stream: { destroy: () => void }; once: (event: "end", listener: () => void) => void }
}

/** What the caller of a cut statement is told: node-postgres' own words for a connection lost. */
const connectionLost = () => new Error("Connection terminated unexpectedly (cut by the simulation)")

/**
 * A `pg` pool of one connection that counts what it has in flight (connections asked for, queries
 * sent) so that a simulated run's time waits for the database's replies (`PendingWork`), and that
 * cuts the connection at the statements `cuts` names: its socket destroyed before the statement
 * is sent, or once the statement ran and before its reply is handed on. A cut ends only once
 * node-postgres has seen the connection end and the server's backend is gone (its transaction
 * rolled back, its locks released), so that what runs next finds the same database whatever the
 * machine's speed; the pool then opens a new connection for the next statement.
 */
export class TrackedPool implements PendingWork {
  private inFlight = 0
  private idleWaiters: Array<() => void> = []
  /** Set while a connection request's callback runs: the step that asked for it (its statement is sent from there, not from a fiber). */
  private granting: { readonly step: StepRun | undefined } | undefined
  private url = ""
  private watcher: Promise<pg.Client> | undefined

  constructor(private readonly cuts?: StatementCuts) {}

  readonly acquire = (url: string) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        this.url = url
        const pool = new pg.Pool({ connectionString: url, max: 1 })
        // A connection that breaks while idle is dropped by the pool, which then reports it here.
        pool.on("error", () => {})
        return this.track(pool)
      }),
      (pool) =>
        Effect.promise(async () => {
          await pool.end()
          if (this.watcher !== undefined) await (await this.watcher).end()
        })
    )

  readonly drain = (): Promise<boolean> => {
    if (this.inFlight === 0) return Promise.resolve(false)
    return new Promise<boolean>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`the simulation's PostgreSQL did not answer ${this.inFlight} requests in ${stuckAfterMillis / 1000} s (or a fiber holds its only connection while it waits on the simulated clock)`)),
        stuckAfterMillis
      )
      this.idleWaiters.push(() => {
        clearTimeout(timer)
        done(true)
      })
    })
  }

  private track(pool: pg.Pool): pg.Pool {
    const connect = pool.connect.bind(pool) as (callback: Callback) => void
    const patched = new WeakSet<object>()
    ;(pool as unknown as { connect: unknown }).connect = (callback?: Callback) => {
      if (typeof callback !== "function") return (connect as unknown as () => Promise<unknown>)()
      const step = this.stepNow()
      this.start()
      connect((...results) => {
        const client = results[1] as pg.PoolClient | undefined
        if (client !== undefined && !patched.has(client)) {
          patched.add(client)
          this.trackQueries(client)
        }
        this.finish(() => this.granted(step, () => callback(...results)))
      })
    }
    return pool
  }

  /** The step a statement sent now belongs to: the one that asked for the connection, inside its callback; else the running fiber's. */
  private stepNow(): StepRun | undefined {
    return this.granting !== undefined ? this.granting.step : this.cuts?.current()
  }

  private granted(step: StepRun | undefined, callback: () => void) {
    const outer = this.granting
    this.granting = { step }
    try {
      callback()
    } finally {
      this.granting = outer
    }
  }

  private trackQueries(client: pg.PoolClient) {
    const query = client.query.bind(client) as (...args: Array<unknown>) => unknown
    ;(client as unknown as { query: unknown }).query = (...args: Array<unknown>) => {
      const callback = args.at(-1)
      if (typeof callback !== "function") return query(...args)
      const step = this.stepNow()
      const phase = step === undefined ? undefined : this.cuts!.at(step)
      this.start()
      const reply: Callback = (...results) => this.finish(() => (callback as Callback)(...results))
      if (phase === "before") return void this.cutThen(client, reply)
      return query(...args.slice(0, -1), phase === "after" ? () => this.cutThen(client, reply) : reply)
    }
  }

  /** Cuts `client`'s connection, then answers the statement with the loss (its own reply, if any, is dropped). */
  private cutThen(client: pg.PoolClient, reply: Callback) {
    this.cut(client as unknown as ClientInternals).then(() => reply(connectionLost()), (error: unknown) => reply(error))
  }

  private async cut(client: ClientInternals) {
    // node-postgres' own listener runs first: by then it holds the client unusable and has told the pool.
    const ended = new Promise<void>((done) => client.connection.once("end", done))
    client.connection.stream.destroy()
    await ended
    await this.backendGone(client.processID)
  }

  /** Waits, on a connection of its own, until the server has ended the cut connection's backend. */
  private async backendGone(pid: number) {
    this.watcher ??= (async () => {
      const watcher = new pg.Client({ connectionString: this.url })
      watcher.on("error", () => {})
      await watcher.connect()
      return watcher
    })()
    const watcher = await this.watcher
    while ((await watcher.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid])).rows.length > 0) {
      await new Promise((done) => setTimeout(done, 1))
    }
  }

  private start() {
    this.inFlight++
  }

  /** Hands the reply on, then wakes the time that waits for quiet once nothing is in flight. */
  private finish(reply: () => void) {
    this.inFlight--
    reply()
    if (this.inFlight === 0) {
      const waiters = this.idleWaiters
      this.idleWaiters = []
      for (const wake of waiters) wake()
    }
  }
}
