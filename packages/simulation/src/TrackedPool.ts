import { Effect } from "effect"
import pg from "pg"
import type { PendingWork } from "./PendingWork.js"

type Callback = (...results: Array<unknown>) => void

/** How long (real time) a reply may take before the run gives up on the database. */
const stuckAfterMillis = 60_000

/**
 * A `pg` pool of one connection that counts what it has in flight (connections asked for, queries
 * sent) so that a simulated run's time waits for the database's replies (`PendingWork`).
 */
export class TrackedPool implements PendingWork {
  private inFlight = 0
  private idleWaiters: Array<() => void> = []

  readonly acquire = (url: string) =>
    Effect.acquireRelease(
      Effect.sync(() => this.track(new pg.Pool({ connectionString: url, max: 1 }))),
      (pool) => Effect.promise(() => pool.end())
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
      this.start()
      connect((...results) => {
        const client = results[1] as pg.PoolClient | undefined
        if (client !== undefined && !patched.has(client)) {
          patched.add(client)
          this.trackQueries(client)
        }
        this.finish(() => callback(...results))
      })
    }
    return pool
  }

  private trackQueries(client: pg.PoolClient) {
    const query = client.query.bind(client) as (...args: Array<unknown>) => unknown
    ;(client as unknown as { query: unknown }).query = (...args: Array<unknown>) => {
      const callback = args.at(-1)
      if (typeof callback !== "function") return query(...args)
      this.start()
      return query(...args.slice(0, -1), (...results: Array<unknown>) => this.finish(() => (callback as Callback)(...results)))
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
