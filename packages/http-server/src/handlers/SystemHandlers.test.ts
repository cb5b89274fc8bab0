import { expect, layer } from "@effect/vitest"
import { contractDocument } from "@collector/api"
import { SqlClient } from "@effect/sql"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { Context, Effect, Layer } from "effect"
import { expectEnvelopeHeaders, expectError, expectOk, header } from "../testing/Assertions.js"
import { send } from "../testing/RawClient.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"

const get = (target: string, headers: ReadonlyArray<readonly [string, string]> = []) =>
  Effect.flatMap(ServerUrl, (url) => send(url, { method: "GET", target, headers }))

layer(TestServerLive(), { excludeTestServices: true })("system operations", (it) => {
  it.effect("GET /healthz reports the service and its database without authentication", () =>
    Effect.gen(function*() {
      const res = yield* get("/healthz")
      expect(expectOk(res)).toEqual({
        status: "ok",
        version: "6.0.0",
        components: [{ component: "database", status: "ok", detail: "" }]
      })
      expect(header(res, "pragma")).toBeUndefined()
    }))

  it.effect("GET /healthz ignores signature headers it does not need", () =>
    Effect.gen(function*() {
      const res = yield* get("/healthz", [["x-app-id", "01"], ["x-timestamp", "x"], ["x-sign", "nope"], ["authorization", "Bearer nope"]])
      expect(expectOk(res).status).toBe("ok")
    }))

  it.effect("GET /openapi.json serves the contract document as is, without an envelope", () =>
    Effect.gen(function*() {
      const res = yield* get("/openapi.json")
      expect(res.status).toBe(200)
      expectEnvelopeHeaders(res)
      expect(header(res, "content-type")).toMatch(/^application\/json\b/)
      expect(res.json).toEqual(JSON.parse(JSON.stringify(contractDocument())))
      expect(res.json.openapi).toMatch(/^3\.1\./)
      expect(res.json.info.version).toBe("6.0.0")
      expect(res.json.code).toBeUndefined()
      expect(Object.keys(res.json.paths["/open/v1/auth/token"])).toEqual(["post"])
      expect(res.json.paths["/healthz"].get).toBeDefined()
      expect(res.json.paths["/openapi.json"].get).toBeDefined()
    }))
})

/** A second database on the same server, to act on the server's database from outside it. */
class OtherDatabase extends Context.Tag("OtherDatabase")<OtherDatabase, SqlClient.SqlClient>() {}
const OtherDatabaseLive = Layer.effect(OtherDatabase, SqlClient.SqlClient).pipe(Layer.provide(Layer.fresh(TestDatabaseLive)))

layer(Layer.merge(TestServerLive(), OtherDatabaseLive), { excludeTestServices: true })("system operations without a database", (it) => {
  it.effect("GET /healthz is 503 SERVICE_UNAVAILABLE while the database refuses connections", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const other = yield* OtherDatabase
      expectOk(yield* get("/healthz"))
      const [{ name }] = yield* sql<{ name: string }>`SELECT current_database() AS name`
      yield* other.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`)
      yield* other`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`
      const res = yield* get("/healthz")
      expectError(res, 503, "SERVICE_UNAVAILABLE")
      expect(res.json.message).toBe("database unreachable")
      // Both databases are dropped with the layer; nothing to restore.
    }))
})
