import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { call, tokenFor } from "../testing/Calls.js"
import { provisionTenant } from "../testing/Tenants.js"
import { CapturedLogs, ServerUrl, TestServerLive } from "../testing/TestServer.js"

/** A second database on the same server, to cut the server's own database off from outside. */
class OtherDatabase extends Context.Tag("OtherDatabase")<OtherDatabase, SqlClient.SqlClient>() {}
const OtherDatabaseLive = Layer.effect(OtherDatabase, SqlClient.SqlClient).pipe(Layer.provide(Layer.fresh(TestDatabaseLive)))

layer(Layer.merge(TestServerLive(), OtherDatabaseLive), { excludeTestServices: true })("defects", (it) => {
  it.effect("a storage failure inside a handler is a 500 INTERNAL_ERROR envelope, its cause logged, not shown", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const token = yield* tokenFor(url, app)
      const created = expectOk(yield* call(url, app, token, "POST", "/open/v1/wallets", JSON.stringify({ custom_id: "w", request_id: randomUUID() })))
      // Warm the credential and token caches, so the failure happens in the handler itself.
      expectOk(yield* call(url, app, token, "GET", `/open/v1/wallets/${created.id}`))
      const sql = yield* SqlClient.SqlClient
      const [{ name }] = yield* sql<{ name: string }>`SELECT current_database() AS name`
      const other = yield* OtherDatabase
      yield* other.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`)
      yield* other`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`
      const res = yield* call(url, app, token, "GET", `/open/v1/wallets/${created.id}`)
      expectError(res, 500, "INTERNAL_ERROR")
      expect(res.json.message).toBe("internal error")
      const logged = (yield* CapturedLogs).lines.map((l) => JSON.parse(l)).filter((l) => l.logLevel === "ERROR")
      expect(logged.some((l) => l.annotations.trace_id === res.json.trace_id)).toBe(true)
      yield* other.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`)
    }))
})
