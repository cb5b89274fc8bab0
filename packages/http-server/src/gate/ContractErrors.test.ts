import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { call, tokenFor } from "../testing/Calls.js"
import { provisionTenant } from "../testing/Tenants.js"
import { CapturedLogs, ServerUrl, TestServerLive } from "../testing/TestServer.js"

layer(TestServerLive(), { excludeTestServices: true })("defects", (it) => {
  it.effect("a storage failure inside a handler is a 500 INTERNAL_ERROR envelope, its cause logged, not shown", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const token = yield* tokenFor(url, app)
      const created = expectOk(yield* call(url, app, token, "POST", "/open/v1/wallets", JSON.stringify({ custom_id: "w", request_id: randomUUID() })))
      // Warm the credential and token caches, so the failure happens in the handler itself.
      expectOk(yield* call(url, app, token, "GET", `/open/v1/wallets/${created.id}`))
      // A statement the database refuses (its table gone), not a lost connection: a lost
      // connection is a 503 to retry, and cutting the connections raced the pool noticing it.
      const sql = yield* SqlClient.SqlClient
      yield* sql`ALTER TABLE wallets RENAME TO wallets_gone`
      const res = yield* call(url, app, token, "GET", `/open/v1/wallets/${created.id}`).pipe(
        Effect.ensuring(Effect.orDie(sql`ALTER TABLE wallets_gone RENAME TO wallets`))
      )
      expectError(res, 500, "INTERNAL_ERROR")
      expect(res.json.message).toBe("internal error")
      const logged = (yield* CapturedLogs).lines.map((l) => JSON.parse(l)).filter((l) => l.logLevel === "ERROR")
      expect(logged.some((l) => l.annotations.trace_id === res.json.trace_id)).toBe(true)
    }))
})
