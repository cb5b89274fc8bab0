import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { expectError, expectOk } from "../testing/Assertions.js"
import { pollUntil, provisionTenant, requestToken } from "../testing/Tenants.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"

layer(TestServerLive({ unknownAppCacheTtl: Duration.seconds(1) }), { excludeTestServices: true })("unknown app IDs", (it) => {
  it.effect("an app ID found unknown is refused from memory until its time passes: no database look-up per request", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const sql = yield* SqlClient.SqlClient
      const { app } = yield* provisionTenant()
      const renamed = { ...app, appId: "9000000000000000001" }
      // Unknown now, and remembered so.
      expectError(yield* requestToken(url, renamed), 401, "TOKEN_INVALID_OR_EXPIRED")
      // The credential appears under that ID in the store (a fresh app has nothing that refers to it) ...
      yield* sql`UPDATE apps SET app_id = ${renamed.appId} WHERE app_id = ${app.appId}`.pipe(Effect.orDie)
      // ... but the gate does not look again while the miss is remembered.
      const started = Date.now()
      expectError(yield* requestToken(url, renamed), 401, "TOKEN_INVALID_OR_EXPIRED")
      expect(Date.now() - started).toBeLessThan(900)
      // Once it is forgotten the next request reads the store and is served.
      expectOk(yield* pollUntil(requestToken(url, renamed), (r) => r.status === 200, "3 seconds"))
    }))
})
