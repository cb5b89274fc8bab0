import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Tenants } from "@collector/core"
import { ServerUrl, TestServerLive } from "@collector/http-server/testing"
import { type Duration, Effect, Either, Option, Redacted } from "effect"
import { bypass, delay, http, HttpResponse, passthrough } from "msw"
import { setupServer } from "msw/node"
import { randomUUID } from "node:crypto"
import { Conflict, NotFound, TenantUnavailable } from "./index.js"
import { makeCollectorClient } from "./CollectorEffectClient.js"

const tenantClient = (name: string, options: { timeout?: Duration.DurationInput } = {}) =>
  Effect.gen(function*() {
    const admin = yield* Tenants.TenantAdmin
    const { credentials } = yield* admin.create(name, ["nile", "main"])
    const url = yield* ServerUrl
    const clientFor = (network: "nile" | "main") => {
      const c = credentials.find((x) => x.network === network)!
      return makeCollectorClient({ baseUrl: url, appId: c.appId, appSecret: c.appSecret, timeout: options.timeout ?? "10 seconds" }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
    }
    return { nile: yield* clientFor("nile"), main: yield* clientFor("main"), credentials, url }
  })

const failureOf = <A, E>(effect: Effect.Effect<A, E>) => Effect.map(Effect.either(effect), Either.getLeft)

layer(TestServerLive(), { excludeTestServices: true })("CollectorEffectClient", (it) => {
  it.effect("obtains a token by itself and creates and reads a wallet", () =>
    Effect.gen(function*() {
      const { nile } = yield* tenantClient("sdk-basic")
      const created = yield* nile.wallets.createWallet({ payload: { custom_id: "user-1", request_id: randomUUID() } })
      expect(created.custom_id).toBe("user-1")
      expect(created.network).toBe("nile")
      expect(created.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
      const read = yield* nile.wallets.getWallet({ path: { id: created.id } })
      expect(read).toMatchObject({ id: created.id, address: created.address, balance_block: "0", balance_usdt: null, collected_usdt: "0" })
    }))

  it.effect("replays a write with the same request_id and rejects changed parameters", () =>
    Effect.gen(function*() {
      const { nile } = yield* tenantClient("sdk-idem")
      const requestId = randomUUID()
      const first = yield* nile.wallets.createWallet({ payload: { custom_id: "same", request_id: requestId } })
      const again = yield* nile.wallets.createWallet({ payload: { custom_id: "same", request_id: requestId } })
      expect(again).toEqual(first)
      const conflict = yield* failureOf(nile.wallets.createWallet({ payload: { custom_id: "other", request_id: requestId } }))
      expect(conflict._tag === "Some" && conflict.value).toBeInstanceOf(Conflict)
      expect(conflict._tag === "Some" && (conflict.value as Conflict).error_code).toBe("IDEMPOTENCY_CONFLICT")
      expect(conflict._tag === "Some" && (conflict.value as Conflict).message).toMatch(/^conflict: idempotency key already used with another request/)
    }))

  it.effect("surfaces envelope errors as typed errors", () =>
    Effect.gen(function*() {
      const { main, nile } = yield* tenantClient("sdk-errors")
      const wallet = yield* nile.wallets.createWallet({ payload: { custom_id: "dup", request_id: randomUUID() } })
      const duplicate = yield* failureOf(nile.wallets.createWallet({ payload: { custom_id: "dup", request_id: randomUUID() } }))
      expect(duplicate._tag === "Some" && duplicate.value).toBeInstanceOf(Conflict)
      expect(duplicate._tag === "Some" && (duplicate.value as Conflict).error_code).toBe("BUSINESS_CONFLICT")
      const otherNetwork = yield* failureOf(main.wallets.getWallet({ path: { id: wallet.id } }))
      expect(otherNetwork._tag === "Some" && otherNetwork.value).toBeInstanceOf(NotFound)
      // The typed client checks its input against the same schemas before anything is sent.
      const tooShort = yield* failureOf(nile.wallets.createWallet({ payload: { custom_id: "x", request_id: "short" } }))
      expect(tooShort._tag === "Some" && (tooShort.value as { _tag: string })._tag).toBe("ParseError")
      yield* (yield* Tenants.TenantAdmin).disable("sdk-errors")
      yield* Effect.sleep("600 millis")
      const blocked = yield* failureOf(nile.wallets.getWallet({ path: { id: wallet.id } }))
      expect(blocked._tag === "Some" && blocked.value).toBeInstanceOf(TenantUnavailable)
    }))

  it.effect("after the app secret rotates, a client with the new secret works and one with the old cannot obtain a token", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const { credentials } = yield* admin.create("sdk-refresh", ["nile"])
      const url = yield* ServerUrl
      const appId = credentials[0]!.appId
      // The client keeps its (old) secret, so rotation must go through a second client below.
      const client = yield* makeCollectorClient({ baseUrl: url, appId, appSecret: credentials[0]!.appSecret }).pipe(Effect.provide(FetchHttpClient.layer))
      const wallet = yield* client.wallets.createWallet({ payload: { custom_id: "r1", request_id: randomUUID() } })
      const rotated = yield* admin.rotateSecret("sdk-refresh", "nile")
      const fresh = yield* makeCollectorClient({ baseUrl: url, appId, appSecret: rotated.appSecret }).pipe(Effect.provide(FetchHttpClient.layer))
      yield* Effect.sleep("600 millis")
      const read = yield* fresh.wallets.getWallet({ path: { id: wallet.id } })
      expect(read.id).toBe(wallet.id)
      const stale = yield* failureOf(client.wallets.getWallet({ path: { id: wallet.id } }))
      expect(Option.getOrThrow(stale)).toMatchObject({ _tag: "RequestError", description: "could not obtain an access token" })
      expect(Redacted.value(rotated.appSecret)).not.toBe(Redacted.value(credentials[0]!.appSecret))
    }))

  it.effect("retries a timed-out write with the same request_id and gets the saved result", () =>
    Effect.gen(function*() {
      const { nile, url } = yield* tenantClient("sdk-retry", { timeout: "1500 millis" })
      const bodies: Array<string> = []
      const mock = setupServer(
        http.post(`${url}/open/v1/wallets`, async ({ request }) => {
          bodies.push(await request.clone().text())
          if (bodies.length > 1) return passthrough()
          // The first attempt reaches the server and is booked, but its answer never arrives.
          await fetch(bypass(request))
          await delay("infinite")
          return HttpResponse.error()
        })
      )
      mock.listen({ onUnhandledRequest: "bypass" })
      const created = yield* nile.wallets.createWallet({ payload: { custom_id: "retried", request_id: randomUUID() } }).pipe(
        Effect.ensuring(Effect.sync(() => mock.close()))
      )
      expect(bodies.length).toBe(2)
      expect(bodies[0]).toBe(bodies[1])
      const read = yield* nile.wallets.getWallet({ path: { id: created.id } })
      expect(read.custom_id).toBe("retried")
    }))
})
