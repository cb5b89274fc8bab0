/**
 * Bearer-token and query/body checks of the Authenticator, called directly over the test
 * database: no served route takes a bearer token, a query or a body yet, so the gate cannot
 * reach these paths over HTTP.
 */
import { expect, layer } from "@effect/vitest"
import { canonicalString, type CanonicalStringInput, sign } from "@collector/api"
import { type Kernel, Tenants } from "@collector/core"
import { Effect, Either, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { expectOk } from "../testing/Assertions.js"
import { AuthenticatorTestLive } from "../testing/AuthenticatorTest.js"
import type { Credentials } from "../testing/RawClient.js"
import { nowSeconds, pollUntil, provisionTenant, requestToken } from "../testing/Tenants.js"
import { ServerUrl } from "../testing/TestServer.js"
import { Authenticator, hashToken } from "./Authenticator.js"

const encoder = new TextEncoder()

interface Call {
  readonly auth?: "bearer" | "signed"
  readonly method?: string
  readonly path?: string
  readonly token?: string
  readonly canonicalQuery?: string
  readonly body?: string
  /** Fields the signature covers instead of the ones sent (tampering). */
  readonly signedOver?: Partial<CanonicalStringInput>
}

/** Calls `authenticate` with a request signed by `app`; the verdict as an Either of the status. */
const authenticate = (app: Credentials, call: Call = {}) =>
  Effect.gen(function*() {
    const authenticator = yield* Authenticator
    const sent = {
      method: call.method ?? "GET",
      path: call.path ?? "/open/v1/wallets",
      appId: app.appId,
      timestamp: String(nowSeconds()),
      accessToken: call.token ?? "",
      canonicalQuery: call.canonicalQuery ?? "",
      body: encoder.encode(call.body ?? "")
    }
    const signed = sign(app.secret, canonicalString({ ...sent, ...call.signedOver }))
    const result = yield* Effect.either(
      authenticator.authenticate({ auth: call.auth ?? "bearer", ...sent, sign: signed })
    )
    return Either.mapLeft(result, (e) => e.status)
  })

const issueToken = (app: Credentials) =>
  Effect.gen(function*() {
    const res = yield* requestToken(yield* ServerUrl, app)
    return expectOk(res).access_token as string
  })

layer(AuthenticatorTestLive(), { excludeTestServices: true })("Authenticator", (it) => {
  it.effect("accepts a live token issued to the signing app and names its tenant and network", () =>
    Effect.gen(function*() {
      const tenant = yield* provisionTenant(["nile", "main"])
      const token = yield* issueToken(tenant.apps[1]!)
      const result = yield* authenticate(tenant.apps[1]!, { token })
      expect(result).toEqual(Either.right({ appId: tenant.apps[1]!.appId, tenantId: tenant.id, network: "main" }))
    }))

  it.effect("rejects a tampered, empty or unknown token", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const token = yield* issueToken(app)
      const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A")
      expect(yield* authenticate(app, { token: flipped })).toEqual(Either.left(401))
      expect(yield* authenticate(app, { token: token + "x" })).toEqual(Either.left(401))
      expect(yield* authenticate(app, { token: "" })).toEqual(Either.left(401))
      expect(yield* authenticate(app, { token: randomBytes(32).toString("base64url") })).toEqual(Either.left(401))
      // Signed over the real token but sent with another one, and the reverse.
      expect(yield* authenticate(app, { token: flipped, signedOver: { accessToken: token } })).toEqual(Either.left(401))
      expect(yield* authenticate(app, { token, signedOver: { accessToken: flipped } })).toEqual(Either.left(401))
      expect(yield* authenticate(app, { token })).toEqual(Either.right(expect.anything()))
    }))

  it.effect("rejects an expired token", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const tokens = yield* Tenants.AccessTokenRepository
      const expired = randomBytes(32).toString("base64url")
      const live = randomBytes(32).toString("base64url")
      yield* tokens.insert(hashToken(expired), app.appId as Kernel.AppId, new Date(Date.now() - 1000))
      yield* tokens.insert(hashToken(live), app.appId as Kernel.AppId, new Date(Date.now() + 60_000))
      expect(yield* authenticate(app, { token: expired })).toEqual(Either.left(401))
      expect(yield* authenticate(app, { token: live })).toEqual(Either.right(expect.anything()))
    }))

  it.effect("rejects a token issued to another app, even of the same tenant", () =>
    Effect.gen(function*() {
      const tenant = yield* provisionTenant(["nile", "main"])
      const stranger = yield* provisionTenant()
      const [nile, main] = tenant.apps
      const mainToken = yield* issueToken(main!)
      const strangerToken = yield* issueToken(stranger.app)
      expect(yield* authenticate(nile!, { token: mainToken })).toEqual(Either.left(401))
      expect(yield* authenticate(nile!, { token: strangerToken })).toEqual(Either.left(401))
      expect(yield* authenticate(stranger.app, { token: mainToken })).toEqual(Either.left(401))
      expect(yield* authenticate(main!, { token: mainToken })).toEqual(Either.right(expect.anything()))
    }))

  it.effect("revokes an app's tokens when its secret is rotated", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const tenant = yield* provisionTenant(["nile", "main"])
      const old = tenant.apps[0]!
      const oldToken = yield* issueToken(old)
      const otherNetworkToken = yield* issueToken(tenant.apps[1]!)
      expect(yield* authenticate(old, { token: oldToken })).toEqual(Either.right(expect.anything()))
      const rotated = yield* Effect.orDie(admin.rotateSecret(tenant.id, "nile"))
      const fresh = { appId: old.appId, secret: Redacted.value(rotated.appSecret) }
      expect(rotated.appId).toBe(old.appId)
      // Once the new secret is in use (the credential cache lives under a second)...
      const signedOk = yield* pollUntil(authenticate(fresh, { auth: "signed", method: "POST", path: "/open/v1/auth/token" }), Either.isRight)
      expect(signedOk).toEqual(Either.right(expect.anything()))
      // ...the old token fails under the new secret, and the old secret fails altogether.
      expect(yield* authenticate(fresh, { token: oldToken })).toEqual(Either.left(401))
      expect(yield* authenticate(old, { token: oldToken })).toEqual(Either.left(401))
      expect(yield* authenticate(old, { auth: "signed", method: "POST", path: "/open/v1/auth/token" })).toEqual(Either.left(401))
      // A token issued under the new secret works, and the other network's app is untouched.
      const newToken = yield* Effect.flatMap(pollUntil(requestToken(yield* ServerUrl, fresh), (r) => r.status === 200), (r) => Effect.succeed(expectOk(r).access_token as string))
      expect(yield* authenticate(fresh, { token: newToken })).toEqual(Either.right(expect.anything()))
      expect(yield* authenticate(tenant.apps[1]!, { token: otherNetworkToken })).toEqual(Either.right(expect.anything()))
    }))

  it.effect("checks the canonical query against the one signed", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const token = yield* issueToken(app)
      const query = { token, canonicalQuery: "page=1&page_size=20" }
      expect(yield* authenticate(app, query)).toEqual(Either.right(expect.anything()))
      for (const other of ["page=2&page_size=20", "page_size=20&page=1", "page=1", ""]) {
        expect(yield* authenticate(app, { ...query, signedOver: { canonicalQuery: other } })).toEqual(Either.left(401))
      }
    }))

  it.effect("checks the raw body bytes against the ones signed", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const token = yield* issueToken(app)
      const body = { token, method: "POST", path: "/open/v1/wallets", body: "{\"a\":1,\"b\":2}" }
      expect(yield* authenticate(app, body)).toEqual(Either.right(expect.anything()))
      for (const other of ["{\"b\":2,\"a\":1}", "{\"a\":1, \"b\":2}", "{\"a\":2,\"b\":2}", ""]) {
        expect(yield* authenticate(app, { ...body, signedOver: { body: encoder.encode(other) } })).toEqual(Either.left(401))
      }
    }))

  it.effect("answers 403 for an unavailable tenant only once the signature and token are valid", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const { app, id } = yield* provisionTenant()
      const token = yield* issueToken(app)
      yield* admin.disable(id)
      const verdict = yield* pollUntil(authenticate(app, { token }), (r) => Either.isLeft(r) && r.left === 403)
      expect(verdict).toEqual(Either.left(403))
      expect(yield* authenticate({ ...app, secret: "wrong" }, { token })).toEqual(Either.left(401))
      expect(yield* authenticate(app, { token: token + "x" })).toEqual(Either.left(401))
    }))
})
