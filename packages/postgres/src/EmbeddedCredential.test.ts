import { expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import pg from "pg"
import { scramOnly } from "./EmbeddedCredential.js"
import { acquireEmbeddedDatabase } from "./EmbeddedDatabase.js"
import { loadEmbeddedPostgres } from "./EmbeddedPostgresModule.js"
import { freePort } from "./FreePort.js"

/** Whether `password` logs in as the embedded superuser on `port` (a refusal, not a dead server). */
const logsIn = (port: number, password: string) =>
  Effect.promise(async () => {
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password, database: "postgres", connectionTimeoutMillis: 3000 })
    try {
      await client.connect()
      await client.end()
      return true
    } catch (error) {
      if (!/password authentication failed/.test(String(error))) throw error
      return false
    }
  })

const query = (url: Redacted.Redacted, text: string) =>
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: Redacted.value(url) })
    await client.connect()
    try {
      return (await client.query(text)).rows
    } finally {
      await client.end()
    }
  })

const hbaMethods = (directory: string) =>
  readFileSync(join(directory, "pg_hba.conf"), "utf8").split("\n").filter((l) => !/^\s*(#|$)/.test(l)).map((l) => l.trim().split(/\s+/).at(-1))

const fresh = (name: string) => {
  const directory = resolve(".data", `${name}-${process.pid}`, "pg")
  rmSync(resolve(directory, ".."), { recursive: true, force: true })
  mkdirSync(resolve(directory, ".."), { recursive: true })
  return directory
}

it.scopedLive("a new cluster: a random superuser password in a 0600 file beside it, postgres/postgres refused, scram-sha-256 only", () =>
  Effect.gen(function*() {
    const directory = fresh("embedded-credential")
    const port = yield* Effect.promise(freePort)
    const url = yield* acquireEmbeddedDatabase({ directory, port, persistent: true })
    const file = `${directory}.password`
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const password = readFileSync(file, "utf8").trim()
    expect(password.length).toBeGreaterThanOrEqual(40)
    expect(Redacted.value(url)).toContain(encodeURIComponent(password))
    expect(yield* logsIn(port, "postgres")).toBe(false)
    expect(yield* logsIn(port, password)).toBe(true)
    expect(new Set(hbaMethods(directory))).toEqual(new Set(["scram-sha-256"]))
    expect((yield* query(url, "SELECT rolpassword LIKE 'SCRAM-SHA-256$%' AS scram FROM pg_authid WHERE rolname = 'postgres'"))[0].scram).toBe(true)
    // The throw-away initdb password is gone once replaced.
    expect(existsSync(`${file}.bootstrap`)).toBe(false)
  }), { timeout: 120_000 })

it.scopedLive("a cluster of an earlier version (postgres/postgres, password authentication) is moved in place, keeping its rows", () =>
  Effect.gen(function*() {
    const directory = fresh("embedded-legacy")
    const port = yield* Effect.promise(freePort)
    // Made exactly as earlier versions made it.
    yield* Effect.promise(async () => {
      const EmbeddedPostgres = await loadEmbeddedPostgres()
      const old = new EmbeddedPostgres({
        databaseDir: directory, port, user: "postgres", password: "postgres", persistent: true, createPostgresUser: true,
        onLog: () => {}, onError: () => {}
      })
      await old.initialise()
      await old.start()
      const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password: "postgres", database: "postgres" })
      await client.connect()
      await client.query("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('a tenant''s row')")
      await client.end()
      await old.stop()
    })
    expect(existsSync(`${directory}.password`)).toBe(false)
    expect(hbaMethods(directory)).toContain("password")
    const url = yield* acquireEmbeddedDatabase({ directory, port, persistent: true })
    expect(yield* query(url, "SELECT note FROM kept")).toEqual([{ note: "a tenant's row" }])
    expect(yield* logsIn(port, "postgres")).toBe(false)
    expect(statSync(`${directory}.password`).mode & 0o777).toBe(0o600)
    expect(new Set(hbaMethods(directory))).toEqual(new Set(["scram-sha-256"]))
  }), { timeout: 120_000 })

it.scopedLive("as root, under a DATA_DIR of mode 0700 (mktemp -d): the server starts", () =>
  Effect.gen(function*() {
    if (process.getuid?.() !== 0) return expect(process.getuid?.()).not.toBe(0)
    const dataDir = mkdtempSync(join(tmpdir(), "collector-data-"))
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
    const port = yield* Effect.promise(freePort)
    const url = yield* acquireEmbeddedDatabase({ directory: join(dataDir, "pg"), port, persistent: false })
    expect(yield* query(url, "SELECT 1 AS one")).toEqual([{ one: 1 }])
    // Search for others, never read: the directory still cannot be listed by anyone else.
    expect(statSync(dataDir).mode & 0o007).toBe(0o001)
  }), { timeout: 120_000 })

it("scramOnly: every authentication method but scram-sha-256 becomes it; comments stay", () => {
  const hba = "# TYPE DATABASE USER ADDRESS METHOD\nlocal all all trust\nhost all all 127.0.0.1/32 password\nhost all all ::1/128 md5\nhost replication all 127.0.0.1/32 scram-sha-256\n"
  expect(scramOnly(hba)).toBe(
    "# TYPE DATABASE USER ADDRESS METHOD\nlocal all all scram-sha-256\nhost all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\nhost replication all 127.0.0.1/32 scram-sha-256\n"
  )
})
