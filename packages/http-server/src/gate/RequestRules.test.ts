import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectError, expectOk, header } from "../testing/Assertions.js"
import { type RawRequest, send, signedHeaders } from "../testing/RawClient.js"
import { provisionTenant, tokenTarget } from "../testing/Tenants.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"

const call = (req: RawRequest) => Effect.flatMap(ServerUrl, (url) => send(url, req))

/** A token request signed over exactly what is sent, so only the request rule can reject it. */
const signedTokenRequest = (target: string, extra: { readonly body?: string; readonly headers?: ReadonlyArray<readonly [string, string]> } = {}) =>
  Effect.gen(function*() {
    const { app } = yield* provisionTenant()
    return yield* call({
      method: "POST",
      target,
      body: extra.body,
      headers: [...signedHeaders(app, { method: "POST", target, body: extra.body }), ...(extra.headers ?? [])]
    })
  })

layer(TestServerLive(), { excludeTestServices: true })("request rules", (it) => {
  it.effect("the token operation accepts no body, even a signed empty JSON object", () =>
    Effect.gen(function*() {
      for (const body of ["{}", "{\"grant_type\":\"client_credentials\"}", "null", " ", "x"]) {
        expectError(yield* signedTokenRequest(tokenTarget, { body }), 400, "INVALID_ARGUMENT")
      }
      // An explicit zero-length body is no body.
      expectOk(yield* signedTokenRequest(tokenTarget, { headers: [["content-length", "0"]] }))
    }))

  it.effect("a POST accepts no query string, not even a bare '?'", () =>
    Effect.gen(function*() {
      for (const target of [`${tokenTarget}?`, `${tokenTarget}?a=1`, `${tokenTarget}?&`, `${tokenTarget}?=`]) {
        const res = yield* signedTokenRequest(target)
        expectError(res, 400, "INVALID_ARGUMENT")
        expect(res.json.message).toMatch(/query/)
      }
      // Unsigned: the query rule comes before authentication (400, not 401).
      expectError(yield* call({ method: "POST", target: `${tokenTarget}?x=1` }), 400, "INVALID_ARGUMENT")
    }))

  it.effect("an unknown path is 404 ROUTE_NOT_FOUND", () =>
    Effect.gen(function*() {
      const targets = ["/", "/nope", "/open/v1", "/open/v1/unknown", "/open/v1/auth/token/", "/open/v1/AUTH/token", "/open/v2/auth/token", "/healthz/", "//healthz", "/open/v1/auth/token%2F"]
      for (const target of targets) {
        for (const method of ["GET", "POST"]) {
          const res = yield* call({ method, target })
          expectError(res, 404, "ROUTE_NOT_FOUND")
          expect(header(res, "pragma")).toBeUndefined()
        }
      }
      // The route is checked before the headers and the authentication.
      expectError(yield* call({ method: "POST", target: "/open/v1/nope", headers: [["idempotency-key", "k"]] }), 404, "ROUTE_NOT_FOUND")
      expectError(yield* signedTokenRequest("/open/v1/auth/tokens"), 404, "ROUTE_NOT_FOUND")
    }))

  it.effect("a known path with the wrong method is 405 METHOD_NOT_ALLOWED", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["GET", tokenTarget],
        ["PUT", tokenTarget],
        ["DELETE", tokenTarget],
        ["PATCH", tokenTarget],
        ["OPTIONS", tokenTarget],
        ["POST", "/healthz"],
        ["DELETE", "/healthz"],
        ["POST", "/openapi.json"],
        ["PUT", "/openapi.json"],
        // Literal paths beside a `/:id` route are theirs, not an ID's.
        ["GET", "/open/v1/sweeps/estimate"],
        ["GET", "/open/v1/wallets/selection"],
        ["GET", "/open/v1/wallets/preview"]
      ]
      for (const [method, target] of cases) expectError(yield* call({ method, target }), 405, "METHOD_NOT_ALLOWED")
      // The method is checked before the headers.
      expectError(yield* call({ method: "GET", target: tokenTarget, headers: [["idempotency-key", "k"]] }), 405, "METHOD_NOT_ALLOWED")
    }))

  it.effect("a GET must have an empty body", () =>
    Effect.gen(function*() {
      for (const target of ["/healthz", "/openapi.json"]) {
        expectError(yield* call({ method: "GET", target, body: "{}", headers: [["content-type", "application/json"]] }), 400, "INVALID_ARGUMENT")
        expectError(yield* call({ method: "GET", target, body: "x" }), 400, "INVALID_ARGUMENT")
      }
      expectOk(yield* call({ method: "GET", target: "/healthz", headers: [["content-length", "0"]] }))
    }))

  it.effect("the Idempotency-Key header is never accepted", () =>
    Effect.gen(function*() {
      for (const value of ["k-1", "", "00000000-0000-0000-0000-000000000000"]) {
        const res = yield* signedTokenRequest(tokenTarget, { headers: [["Idempotency-Key", value]] })
        expectError(res, 400, "INVALID_ARGUMENT")
        expect(res.json.message).toMatch(/Idempotency-Key/)
        expectError(yield* call({ method: "GET", target: "/healthz", headers: [["idempotency-key", value]] }), 400, "INVALID_ARGUMENT")
      }
    }))

  it.effect("a plaintext app secret is never accepted", () =>
    Effect.gen(function*() {
      const { app } = yield* provisionTenant()
      const res = yield* call({
        method: "POST",
        target: tokenTarget,
        headers: [...signedHeaders(app, { method: "POST", target: tokenTarget }), ["x-app-secret", app.secret]]
      })
      expectError(res, 400, "INVALID_ARGUMENT")
    }))

  it.effect("an operation that declares no query parameters refuses any query, repeated, malformed or bare", () =>
    Effect.gen(function*() {
      const queries = ["", "x=1", "a=1&a=2", "a&a", "a=1&%61=2", "a=%zz", "a=%2", "a=%C3", "%=1", "&", "="]
      for (const target of ["/healthz", "/openapi.json"]) {
        for (const query of queries) {
          const res = yield* call({ method: "GET", target: `${target}?${query}` })
          expectError(res, 400, "INVALID_ARGUMENT")
          expect(res.json.message).toMatch(/query/)
        }
      }
      expectOk(yield* call({ method: "GET", target: "/healthz" }))
    }))

  it.effect("names a repeated query key (also after percent-decoding) and a malformed query", () =>
    Effect.gen(function*() {
      for (const [query, message] of [
        ["a=1&a=2", 'invalid request: repeated query key "a"'],
        ["page=1&%70age=2", 'invalid request: repeated query key "page"'],
        ["a=%zz", "invalid request: malformed query string"],
        ["a=1&&b=2", "invalid request: malformed query string"]
      ] as const) {
        const res = yield* call({ method: "GET", target: `/healthz?${query}` })
        expectError(res, 400, "INVALID_ARGUMENT")
        expect(res.json.message).toBe(message)
      }
      const unknown = yield* call({ method: "GET", target: "/healthz?verbose=1" })
      expect(unknown.json.message).toBe("invalid request: this operation accepts no query parameters")
    }))
})
