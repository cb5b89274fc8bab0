import { expect, layer } from "@effect/vitest"
import { canonicalString, type CanonicalStringInput, sign } from "@collector/api"
import { Effect } from "effect"
import { expectError, expectOk } from "../testing/Assertions.js"
import { type Credentials, send, signedHeaders } from "../testing/RawClient.js"
import { nowSeconds, provisionTenant, requestToken, startOfSecond, tokenTarget } from "../testing/Tenants.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"

type Headers = ReadonlyArray<readonly [string, string]>

/** X-Sign over the token operation's canonical string, with any field replaced. */
const signature = (secret: string, fields: Partial<CanonicalStringInput> & { appId: string; timestamp: string }) =>
  sign(secret, canonicalString({ method: "POST", path: tokenTarget, accessToken: "", canonicalQuery: "", body: new Uint8Array(), ...fields }))

/** The three headers with the app id and timestamp as given, signed over exactly those values. */
const headersSignedAs = (app: Credentials, appId: string, timestamp: string): Headers => [
  ["x-app-id", appId],
  ["x-timestamp", timestamp],
  ["x-sign", signature(app.secret, { appId, timestamp })]
]

const post = (headers: Headers) => Effect.flatMap(ServerUrl, (url) => send(url, { method: "POST", target: tokenTarget, headers }))

const expect401 = (headers: Headers) =>
  Effect.map(post(headers), (res) => {
    expectError(res, 401, "TOKEN_INVALID_OR_EXPIRED")
    expect(res.json.message).toBe("token invalid or expired")
  })

layer(TestServerLive(), { excludeTestServices: true })("authentication of the token operation", (it) => {
  it.effect("accepts a correctly signed request, whatever the header names' case", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const headers = signedHeaders(app, { method: "POST", target: tokenTarget })
      expectOk(yield* post(headers))
      expectOk(yield* post(headers.map(([k, v]) => [k.toUpperCase(), v] as const)))
    }))

  it.effect("rejects a signature made with another app's secret", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const other = yield* provisionTenant()
      yield* expect401(headersSignedAs({ ...app, secret: other.app.secret }, app.appId, String(nowSeconds())))
    }))

  it.effect("rejects a signature over anything other than what was sent", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const other = yield* provisionTenant()
      const ts = String(nowSeconds())
      const tampered: ReadonlyArray<Partial<CanonicalStringInput>> = [
        { method: "GET" },
        { path: "/open/v1/auth/tokens" },
        { path: "/open/v1/auth/token/" },
        { appId: other.app.appId },
        { timestamp: String(Number(ts) - 1) },
        { accessToken: "some-token" },
        { canonicalQuery: "a=1" },
        { body: new TextEncoder().encode("{}") }
      ]
      for (const fields of tampered) {
        yield* expect401([["x-app-id", app.appId], ["x-timestamp", ts], ["x-sign", signature(app.secret, { appId: app.appId, timestamp: ts, ...fields })]])
      }
      // The untampered control passes, so each rejection above is due to its one change.
      expectOk(yield* post(headersSignedAs(app, app.appId, ts)))
    }))

  it.effect("accepts timestamps 299 s either side of server time and rejects 301 s", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      for (const offset of [-299, 299, 0]) {
        yield* startOfSecond
        expectOk(yield* post(headersSignedAs(app, app.appId, String(nowSeconds() + offset))))
      }
      for (const offset of [-301, 301, -3600, 3600]) {
        yield* startOfSecond
        yield* expect401(headersSignedAs(app, app.appId, String(nowSeconds() + offset)))
      }
      yield* expect401(headersSignedAs(app, app.appId, String(Date.now()))) // milliseconds
    }))

  it.effect("rejects a non-canonical timestamp even when it is signed and in the window", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const ts = nowSeconds()
      for (const text of [`0${ts}`, `00${ts}`, `+${ts}`, `${ts}.0`, `${ts}.`, `0x${ts.toString(16)}`, `${ts}e0`, `${ts / 10}e1`, "", "-0"]) {
        yield* expect401(headersSignedAs(app, app.appId, text))
      }
    }))

  it.effect("rejects a non-canonical or unknown app id", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const ts = String(nowSeconds())
      const forms = [
        `0${app.appId}`,
        `+${app.appId}`,
        `${app.appId}.0`,
        `-${app.appId}`,
        "0",
        "9223372036854775808", // int64 max + 1
        "18446744073709551617", // wraps to 1 in 64 bits
        "9223372036854775807", // canonical but unknown
        String(Number(app.appId) + 1000),
        ""
      ]
      for (const appId of forms) yield* expect401(headersSignedAs(app, appId, ts))
    }))

  it.effect("accepts only 64 lowercase hex characters as X-Sign", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const ts = String(nowSeconds())
      const good = signature(app.secret, { appId: app.appId, timestamp: ts })
      const withSign = (value: string): Headers => [["x-app-id", app.appId], ["x-timestamp", ts], ["x-sign", value]]
      for (const bad of [good.toUpperCase(), good.slice(0, 63), good + "0", good.slice(0, 62) + "zz", "", Buffer.from(good, "hex").toString("base64")]) {
        yield* expect401(withSign(bad))
      }
      expectOk(yield* post(withSign(good)))
    }))

  it.effect("rejects a missing or repeated signature header", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const headers = signedHeaders(app, { method: "POST", target: tokenTarget })
      for (const name of ["x-app-id", "x-timestamp", "x-sign"]) {
        yield* expect401(headers.filter(([k]) => k !== name))
        const line = headers.find(([k]) => k === name)!
        yield* expect401([...headers, line]) // the same value twice
        yield* expect401([...headers, [name, "1"]])
      }
      expectOk(yield* post(headers))
    }))

  it.effect("rejects any Authorization header on the token operation", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const url = yield* ServerUrl
      // Signed over the token it carries, so only the header's presence is wrong.
      const withToken = signedHeaders(app, { method: "POST", target: tokenTarget, token: "abc" })
      expect(withToken.some(([k]) => k === "authorization")).toBe(true)
      yield* expect401(withToken)
      for (const value of ["Bearer ", "Basic dXNlcjpwYXNz", ""]) {
        const res = yield* requestToken(url, app, { extraHeaders: [["authorization", value]] })
        expectError(res, 401, "TOKEN_INVALID_OR_EXPIRED")
      }
      expectOk(yield* requestToken(url, app))
    }))

  it.effect("gives every authentication failure the same message", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const ts = String(nowSeconds())
      const a = yield* post(headersSignedAs(app, "9223372036854775807", ts))
      const b = yield* post(headersSignedAs({ ...app, secret: "wrong" }, app.appId, ts))
      const c = yield* post(headersSignedAs(app, app.appId, String(Number(ts) - 400)))
      expect(new Set([a.text, b.text, c.text].map((t) => JSON.parse(t).message))).toEqual(new Set(["token invalid or expired"]))
    }))
})
