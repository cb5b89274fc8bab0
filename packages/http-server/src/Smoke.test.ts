import { expect, layer } from "@effect/vitest"
import { TenantAdmin } from "@collector/core"
import { Effect, Redacted } from "effect"
import { send, signedHeaders } from "./testing/RawClient"
import { ServerUrl, TestServerLive } from "./testing/TestServer"

layer(TestServerLive(), { excludeTestServices: true })("smoke", (it) => {
  it.effect("issues a token to a signed request", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const admin = yield* TenantAdmin
      const created = yield* admin.create("acme", ["nile"])
      const cred = created.credentials[0]!
      const credentials = { appId: cred.appId, secret: Redacted.value(cred.appSecret) }
      const health0 = yield* send(url, { method: "GET", target: "/healthz" })
      console.log("HEALTH", health0.status, health0.headers, health0.text)
      const res = yield* send(url, { method: "POST", target: "/open/v1/auth/token", headers: signedHeaders(credentials, { method: "POST", target: "/open/v1/auth/token" }) })
      console.log(res.status, res.headers, res.text)
      expect(res.status).toBe(200)
      const health = yield* send(url, { method: "GET", target: "/healthz" })
      console.log(health.status, health.text)
      const nf = yield* send(url, { method: "GET", target: "/nope" })
      console.log(nf.status, nf.text)
    }))
})
