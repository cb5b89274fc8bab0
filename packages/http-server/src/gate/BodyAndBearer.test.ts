import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { call, tokenFor } from "../testing/Calls.js"
import { send, signedHeaders } from "../testing/RawClient.js"
import { provisionTenant } from "../testing/Tenants.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"

const target = "/open/v1/wallets"

const setup = Effect.gen(function*() {
  const url = yield* ServerUrl
  const tenant = yield* provisionTenant(["nile", "main"])
  const app = tenant.apps[0]!
  const token = yield* tokenFor(url, app)
  /** Sends `body` as raw bytes, correctly signed over exactly those bytes. */
  const post = (body: Uint8Array | string, contentType = "application/json") =>
    send(url, {
      method: "POST",
      target,
      body,
      headers: signedHeaders(app, { method: "POST", target, body, token }).map(([k, v]) => (k === "content-type" ? [k, contentType] as const : [k, v] as const))
    })
  return { url, tenant, app, token, post }
})

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("body rules and bearer tokens", (it) => {
  it.effect("rejects every non-object or ambiguous JSON body with 400", () =>
    Effect.gen(function*() {
      const { post } = yield* setup
      const rid = randomUUID()
      const bad: ReadonlyArray<string | Uint8Array> = [
        `{"custom_id":"a","custom_id":"b","request_id":"${rid}"}`,
        `{"custom_id":"a","request_id":"${rid}"}{"x":1}`,
        `[{"custom_id":"a","request_id":"${rid}"}]`,
        "null",
        "\"text\"",
        "42",
        `{"custom_id":"a","request_id":"${rid}",}`,
        `{"custom_id":"a" "request_id":"${rid}"}`,
        "",
        "   ",
        Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
        Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(`{"custom_id":"a","request_id":"${rid}"}`)])
      ]
      for (const body of bad) {
        const res = yield* post(body)
        expectError(res, 400, "INVALID_ARGUMENT")
      }
      const nested = yield* post(`{"custom_id":"a","request_id":"${rid}","x":{"k":1,"k":2}}`)
      expectError(nested, 400, "INVALID_ARGUMENT")
      expect(nested.json.message).toContain("duplicate")
    }))

  it.effect("requires application/json", () =>
    Effect.gen(function*() {
      const { post } = yield* setup
      const body = JSON.stringify({ custom_id: "ct", request_id: randomUUID() })
      expectError(yield* post(body, "text/plain"), 400, "INVALID_ARGUMENT")
      expectError(yield* post(body, "application/x-www-form-urlencoded"), 400, "INVALID_ARGUMENT")
      expectOk(yield* post(body, "application/json; charset=utf-8"))
    }))

  it.effect("bearer: missing, malformed, tampered, foreign or other-network tokens are 401", () =>
    Effect.gen(function*() {
      const { app, post, tenant, token, url } = yield* setup
      const get = (headers: ReadonlyArray<readonly [string, string]>) => send(url, { method: "GET", target: "/open/v1/wallets/1", headers })
      const signed = (tok: string) => signedHeaders(app, { method: "GET", target: "/open/v1/wallets/1", token: tok })
      expectError(yield* get(signed(token).filter(([k]) => k !== "authorization")), 401, "TOKEN_INVALID_OR_EXPIRED")
      expectError(yield* get(signed(token).map(([k, v]) => (k === "authorization" ? [k, `bearer ${token}`] as const : [k, v] as const))), 401, "TOKEN_INVALID_OR_EXPIRED")
      expectError(yield* get([...signed(token), ["authorization", `Bearer ${token}`]]), 401, "TOKEN_INVALID_OR_EXPIRED")
      const tampered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A")
      expectError(yield* get(signed(tampered)), 401, "TOKEN_INVALID_OR_EXPIRED")
      // A token signed for the request but issued to another app.
      const mainToken = yield* tokenFor(url, tenant.apps[1]!)
      expectError(yield* get(signed(mainToken)), 401, "TOKEN_INVALID_OR_EXPIRED")
      // The signature covers the token: swapping in another valid token breaks it.
      const secondToken = yield* tokenFor(url, app)
      const swapped = signed(token).map(([k, v]) => (k === "authorization" ? [k, `Bearer ${secondToken}`] as const : [k, v] as const))
      expectError(yield* get(swapped), 401, "TOKEN_INVALID_OR_EXPIRED")
      expectError(yield* get(signed(token)), 404, "RESOURCE_NOT_FOUND")
      expectOk(yield* post(JSON.stringify({ custom_id: "bearer-ok", request_id: randomUUID() })))
    }))

  it.effect("the body digest is signed: a changed body with the old signature is 401", () =>
    Effect.gen(function*() {
      const { app, token, url } = yield* setup
      const body = JSON.stringify({ custom_id: "signed", request_id: randomUUID() })
      const headers = signedHeaders(app, { method: "POST", target, body, token })
      const reordered = JSON.stringify({ request_id: JSON.parse(body).request_id, custom_id: "signed" })
      expectError(yield* send(url, { method: "POST", target, body: reordered, headers }), 401, "TOKEN_INVALID_OR_EXPIRED")
      expectOk(yield* call(url, app, token, "POST", target, reordered))
    }))
})
