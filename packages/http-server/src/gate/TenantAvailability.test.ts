import { expect, layer } from "@effect/vitest"
import { Tenants } from "@collector/core"
import { Effect } from "effect"
import { expectError, expectOk } from "../testing/Assertions.js"
import type { Credentials, RawResponse } from "../testing/RawClient.js"
import { pollUntil, provisionTenant, requestToken } from "../testing/Tenants.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"

const token = (app: Credentials) => Effect.flatMap(ServerUrl, (url) => requestToken(url, app))

/** Polls the token operation for up to a second (the credential cache lives under one). */
const within1s = (app: Credentials, status: number) => pollUntil(token(app), (r: RawResponse) => r.status === status, "1 second")

const expectUnavailable = (res: RawResponse) => {
  expectError(res, 403, "TENANT_UNAVAILABLE")
  expect(res.json.message).toMatch(/tenant unavailable/)
}

layer(TestServerLive(), { excludeTestServices: true })("tenant availability", (it) => {
  it.effect("a disabled tenant gets 403 TENANT_UNAVAILABLE within a second, and 200 again once enabled", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const tenant = yield* provisionTenant(["nile", "main"])
      expectOk(yield* token(tenant.app))
      yield* admin.disable(tenant.id)
      expectUnavailable(yield* within1s(tenant.app, 403))
      // Every app credential of the tenant is affected.
      expectUnavailable(yield* within1s(tenant.apps[1]!, 403))
      yield* admin.enable(tenant.name) // by name as well as by ID
      expectOk(yield* within1s(tenant.app, 200))
      expectOk(yield* within1s(tenant.apps[1]!, 200))
    }))

  it.effect("403 is only for a caller who proved it holds the secret; others still get 401", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const { app, id } = yield* provisionTenant()
      yield* admin.disable(id)
      expectUnavailable(yield* within1s(app, 403))
      expectError(yield* token({ ...app, secret: "not-the-secret" }), 401, "TOKEN_INVALID_OR_EXPIRED")
      const url = yield* ServerUrl
      const stale = yield* requestToken(url, app, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) })
      expectError(stale, 401, "TOKEN_INVALID_OR_EXPIRED")
    }))

  it.effect("disabling one tenant leaves the others alone", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const a = yield* provisionTenant()
      const b = yield* provisionTenant()
      yield* admin.disable(a.id)
      expectUnavailable(yield* within1s(a.app, 403))
      expectOk(yield* token(b.app))
    }))

  it.effect("an expiry in the past is 403; one in the future, or none, is 200", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const { app, id } = yield* provisionTenant()
      yield* admin.expire(id, new Date(Date.now() + 24 * 3600 * 1000))
      expectOk(yield* token(app))
      yield* Effect.sleep("600 millis") // past the cache, so the future expiry itself was read
      expectOk(yield* token(app))
      yield* admin.expire(id, new Date(Date.now() - 1000))
      expectUnavailable(yield* within1s(app, 403))
      yield* admin.expire(id, null)
      expectOk(yield* within1s(app, 200))
    }))

  it.effect("a tenant expiring shortly is refused from that moment on", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const { app, id } = yield* provisionTenant()
      yield* admin.expire(id, new Date(Date.now() + 1500))
      yield* Effect.sleep("700 millis")
      expectOk(yield* token(app)) // the new expiry is known and not yet reached
      yield* Effect.sleep("1 second")
      expectUnavailable(yield* token(app)) // no cache refresh needed: the expiry time itself passed
    }))

  it.effect("a deleted tenant gets 403 TENANT_UNAVAILABLE", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const tenant = yield* provisionTenant(["nile", "main"])
      expectOk(yield* token(tenant.app))
      yield* admin.remove(tenant.id)
      expectUnavailable(yield* within1s(tenant.app, 403))
      expectUnavailable(yield* within1s(tenant.apps[1]!, 403))
    }))
})
