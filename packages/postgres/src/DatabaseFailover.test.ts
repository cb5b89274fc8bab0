import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, ManagedRuntime, Option, Redacted } from "effect"
import { databaseLayer } from "./Database.js"
import { isTransientConnectFailure } from "./DatabaseStartWait.js"
import { pgRun, type StreamingPair, startStreamingPair, streamingPairAvailable } from "./testing/StreamingPair.js"

// A real primary and a real streaming standby (PostgreSQL 15's own binaries), a two-host
// DATABASE_URL, the primary killed and the standby promoted: the same Database layer the service
// builds must write to the new primary by itself, failing meanwhile only with what tenants get
// as a 503 (the server is unreachable, no server takes writes yet, or one refused a write as read-only).

/** What the HTTP layer answers with 503 and Retry-After (packages/http-server DatabaseUnavailable.ts). */
const isUnavailable = (error: unknown) =>
  isTransientConnectFailure(error) ||
  (error instanceof SqlError && (error.cause as { code?: unknown } | undefined)?.code === "25006")

describe.skipIf(!streamingPairAvailable)("a two-host DATABASE_URL across a failover", () => {
  let pair: StreamingPair | undefined
  let dir = ""
  let primaryPort = 0
  let standbyPort = 0

  beforeAll(async () => {
    // Asynchronous, as a standby made with pg_basebackup -R is: the test waits for the replay itself.
    pair = await startStreamingPair({ synchronous: false })
    ;({ dir, primaryPort, standbyPort } = pair)
  })

  afterAll(() => pair?.remove())

  it("reconnects to the promoted standby and writes there, failing meanwhile only with 503 errors", async () => {
    const url = `postgres://postgres:secret@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/postgres?target_session_attrs=read-write&connect_timeout=2`
    const runtime = ManagedRuntime.make(databaseLayer({
      url: Option.some(Redacted.make(url)),
      dataDir: dir,
      embeddedPort: 0,
      poolSize: 4,
      startTimeoutMs: 20_000
    }))
    try {
      const write = (note: string) =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`INSERT INTO failover_probe (note) VALUES (${note})`
        })
      const notes = Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ note: string }>`SELECT note FROM failover_probe ORDER BY id`
        return rows.map((row) => row.note)
      })
      await runtime.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE failover_probe (id bigserial PRIMARY KEY, note text NOT NULL)`
      }))
      await runtime.runPromise(write("before"))
      // Asynchronous replication: wait until the standby has the row before the primary dies.
      const deadline = Date.now() + 10_000
      const replayed = () => {
        try {
          return pgRun("psql", ["-h", "127.0.0.1", "-p", String(standbyPort), "-U", "postgres", "-d", "postgres", "-Atc", "SELECT count(*) FROM failover_probe"]).toString().startsWith("1")
        } catch {
          return false // the table itself is not replayed yet
        }
      }
      while (!replayed()) {
        if (Date.now() > deadline) throw new Error("the standby did not replay the first write")
        await new Promise((resolve) => setTimeout(resolve, 100))
      }

      pair!.killPrimary()
      // Before the promotion the only live server is a standby: writes must fail as unavailable.
      // (the first finds the pool's connection broken, the next finds no server taking writes).
      const meanwhile = [await runtime.runPromiseExit(write("while no primary")), await runtime.runPromiseExit(write("while no primary"))]
      pair!.promote()

      const failures: Array<unknown> = meanwhile.flatMap(collect)
      let written = false
      const until = Date.now() + 20_000
      while (!written && Date.now() < until) {
        const exit = await runtime.runPromiseExit(write("after"))
        if (Exit.isSuccess(exit)) written = true
        else {
          failures.push(...collect(exit))
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
      expect(written).toBe(true)
      expect(meanwhile.map(Exit.isFailure)).toEqual([true, true])
      expect(causeMessageOf(collect(meanwhile[1]!)[0])).toMatch(/no server of DATABASE_URL is read-write/)
      // Every failure on the way is one tenants see as 503 with Retry-After, never a 500.
      expect(failures.filter((error) => !isUnavailable(error)).map(String)).toEqual([])
      expect(await runtime.runPromise(notes)).toEqual(["before", "after"])

      // The new primary fenced read-only under open connections (as a failover manager demotes
      // one): the write that meets it fails as unavailable (25006), the next connection probes the
      // list again and finds no writable server, and writes resume once the fence is lifted.
      const fence = (on: boolean) => {
        pgRun("psql", ["-h", "127.0.0.1", "-p", String(standbyPort), "-U", "postgres", "-d", "postgres", "-c", `ALTER SYSTEM SET default_transaction_read_only = ${on ? "on" : "off"}`])
        pgRun("psql", ["-h", "127.0.0.1", "-p", String(standbyPort), "-U", "postgres", "-d", "postgres", "-c", "SELECT pg_reload_conf()"])
      }
      fence(true)
      await new Promise((resolve) => setTimeout(resolve, 300))
      const fenced = collect(await runtime.runPromiseExit(write("fenced")))
      expect(fenced.map((error) => (error as SqlError).cause as { code?: unknown }).map((cause) => cause?.code)).toEqual(["25006"])
      expect(fenced.every(isUnavailable)).toBe(true)
      // The connections to it are broken off (a request may still meet one: also a 503); the
      // next new connection probes the list and finds no server taking writes.
      const reprobed: Array<unknown> = []
      for (let attempt = 0; attempt < 5 && !reprobed.some((error) => /no server of DATABASE_URL is read-write/.test(causeMessageOf(error))); attempt++) {
        reprobed.push(...collect(await runtime.runPromiseExit(write("fenced"))))
      }
      expect(reprobed.map(causeMessageOf).filter((message) => /no server of DATABASE_URL is read-write/.test(message))).toHaveLength(1)
      expect(reprobed.every(isUnavailable)).toBe(true)
      fence(false)
      await new Promise((resolve) => setTimeout(resolve, 300))
      await runtime.runPromise(write("unfenced"))
      expect(await runtime.runPromise(notes)).toEqual(["before", "after", "unfenced"])
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
})

const collect = (exit: Exit.Exit<unknown, unknown>): Array<unknown> =>
  Exit.isFailure(exit) ? [...Cause.failures(exit.cause), ...Cause.defects(exit.cause)] : []

const causeMessageOf = (error: unknown) => String((error as SqlError | undefined)?.cause)
