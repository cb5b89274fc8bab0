import { expect, layer } from "@effect/vitest"
import { Tenants } from "@collector/core"
import { ServerUrl, TestServerLive } from "@collector/http-server/testing"
import { Effect, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import {
  CollectorApiError,
  CollectorClient,
  CollectorError,
  CollectorNetworkError,
  CollectorTimeoutError,
  CollectorValidationError
} from "../index.js"

// The Promise client against the real API server over PostgreSQL: what a plain JS caller sees.
const newTenant = (name: string) =>
  Effect.gen(function*() {
    const admin = yield* Tenants.TenantAdmin
    const { credentials } = yield* admin.create(name, ["nile", "main"])
    const baseUrl = yield* ServerUrl
    const clientFor = (network: "nile" | "main") => {
      const c = credentials.find((x) => x.network === network)!
      return new CollectorClient({ baseUrl, appId: c.appId, appSecret: Redacted.value(c.appSecret), timeoutMs: 10_000 })
    }
    return { nile: clientFor("nile"), main: clientFor("main"), credentials, baseUrl }
  })

const rejectionOf = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected a rejection"), (error: unknown) => error)

const listening = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))

layer(TestServerLive(), { excludeTestServices: true })("CollectorClient (Promise)", (it) => {
  it.effect("creates, reads and lists wallets with a token and request_ids of its own", () =>
    Effect.gen(function*() {
      const { nile } = yield* newTenant("promise-wallets")
      yield* Effect.promise(async () => {
        const created = []
        for (const customId of ["a-1", "a-2", "a-3", "a-4", "a-5"]) created.push(await nile.wallets.create({ custom_id: customId }))
        expect(created.map((w) => w.custom_id)).toEqual(["a-1", "a-2", "a-3", "a-4", "a-5"])
        const read = await nile.wallets.get(created[2]!.id)
        expect(read).toMatchObject({ id: created[2]!.id, address: created[2]!.address, custom_id: "a-3", collected_usdt: "0" })
        // Five wallets at two a page: three pages, every wallet exactly once.
        const seen: Array<string> = []
        for await (const wallet of nile.wallets.list({ page_size: 2 })) seen.push(wallet.id)
        expect([...seen].sort()).toEqual(created.map((w) => w.id).sort())
        const pages = []
        for await (const page of nile.wallets.list({ page_size: 2 }).pages()) pages.push([page.page, page.items.length, page.total])
        expect(pages).toEqual([[1, 2, 5], [2, 2, 5], [3, 1, 5]])
        // Starting at a later page walks from there to the end.
        expect((await nile.wallets.list({ page: 2, page_size: 2 }).toArray()).length).toBe(3)
        // The same request_id is the same write: answered from the saved result.
        const requestId = globalThis.crypto.randomUUID()
        const first = await nile.wallets.create({ custom_id: "same", request_id: requestId })
        expect(await nile.wallets.create({ custom_id: "same", request_id: requestId })).toEqual(first)
        await nile.close()
      })
    }))

  it.effect("rejects with Error subclasses carrying the envelope's status, code and trace id", () =>
    Effect.gen(function*() {
      const { main, nile } = yield* newTenant("promise-errors")
      yield* Effect.promise(async () => {
        const wallet = await nile.wallets.create({ custom_id: "dup" })
        const duplicate = await rejectionOf(nile.wallets.create({ custom_id: "dup" }))
        expect(duplicate).toBeInstanceOf(CollectorApiError)
        expect(duplicate).toBeInstanceOf(CollectorError)
        expect(duplicate).toBeInstanceOf(Error)
        expect(duplicate).toMatchObject({ name: "CollectorApiError", status: 409, code: "BUSINESS_CONFLICT" })
        expect((duplicate as CollectorApiError).requestId).toMatch(/^[0-9a-f]{32}$/)
        const missing = await rejectionOf(main.wallets.get(wallet.id))
        expect(missing).toMatchObject({ status: 404, code: "RESOURCE_NOT_FOUND" })
        const reused = globalThis.crypto.randomUUID()
        await nile.wallets.create({ custom_id: "first", request_id: reused })
        expect(await rejectionOf(nile.wallets.create({ custom_id: "second", request_id: reused }))).toMatchObject({ status: 409, code: "IDEMPOTENCY_CONFLICT" })
        // Checked against the contract's schema before anything is sent.
        const invalid = await rejectionOf(nile.wallets.create({ custom_id: "" }))
        expect(invalid).toBeInstanceOf(CollectorValidationError)
        expect((invalid as Error).message).toMatch(/custom_id/)
      })
    }))

  it.effect("a wrong secret is the token endpoint's 401, not a network error", () =>
    Effect.gen(function*() {
      const { baseUrl, credentials } = yield* newTenant("promise-secret")
      yield* Effect.promise(async () => {
        const client = new CollectorClient({ baseUrl, appId: credentials[0]!.appId, appSecret: "not-the-secret", maxRetries: 0 })
        expect(await rejectionOf(client.dashboard.get())).toMatchObject({ name: "CollectorApiError", status: 401, code: "TOKEN_INVALID_OR_EXPIRED" })
      })
    }))

  it.effect("reads the dashboard and walks empty lists", () =>
    Effect.gen(function*() {
      const { nile } = yield* newTenant("promise-reads")
      yield* Effect.promise(async () => {
        expect((await nile.dashboard.get()).network).toBe("nile")
        expect(await nile.deposits.list().toArray()).toEqual([])
        expect(await nile.sweeps.list({ page_size: 5 }).toArray()).toEqual([])
        expect(await nile.webhooks.list().toArray()).toEqual([])
        expect(await nile.settings.getWebhook()).toMatchObject({ enabled: false })
      })
    }))
})

layer(TestServerLive(), { excludeTestServices: true })("CollectorClient (Promise) transport failures", (it) => {
  it.effect("no answer in time is a CollectorTimeoutError, a refused connection a CollectorNetworkError", () =>
    Effect.promise(async () => {
      const silent = createServer(() => {})
      const url = await listening(silent)
      try {
        const slow = new CollectorClient({ baseUrl: url, appId: "1", appSecret: "s", timeoutMs: 200, maxRetries: 0 })
        const timedOut = await rejectionOf(slow.dashboard.get())
        expect(timedOut).toBeInstanceOf(CollectorTimeoutError)
        expect(timedOut).not.toBeInstanceOf(CollectorNetworkError)
      } finally {
        silent.closeAllConnections()
        await new Promise((resolve) => silent.close(resolve))
      }
      // The port was just released, so nothing listens there any more.
      const refused = new CollectorClient({ baseUrl: url, appId: "1", appSecret: "s", maxRetries: 0 })
      const failed = await rejectionOf(refused.dashboard.get())
      expect(failed).toBeInstanceOf(CollectorNetworkError)
    }))

  it.effect("a read retries 503 after Retry-After and fetches a new token once after a 401", () =>
    Effect.promise(async () => {
      const seen: Array<string> = []
      let tokens = 0
      const wallet = { id: "7", custom_id: "c" }
      const stub = createServer((request, response) => {
        const auth = request.headers.authorization ?? ""
        seen.push(`${request.method} ${request.url} ${auth}`)
        const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          response.writeHead(status, { "content-type": "application/json", ...headers })
          response.end(JSON.stringify(body))
        }
        if (request.url === "/open/v1/auth/token") {
          tokens++
          return send(200, { code: 0, message: "", data: { access_token: `token-${tokens}`, token_type: "Bearer", expires_in: 7200 } })
        }
        const gets = seen.filter((line) => line.startsWith("GET")).length
        if (gets === 1) return send(503, { code: 503, message: "busy", error_code: "SERVICE_UNAVAILABLE", trace_id: "0".repeat(32) }, { "retry-after": "0" })
        // The first token is revoked (a rotated secret): 401 until the client fetches another.
        if (auth === "Bearer token-1") return send(401, { code: 401, message: "token", error_code: "TOKEN_INVALID_OR_EXPIRED", trace_id: "1".repeat(32) })
        return send(200, { code: 0, message: "", data: wallet })
      })
      const url = await listening(stub)
      try {
        const client = new CollectorClient({ baseUrl: url, appId: "1", appSecret: "s" })
        expect(await client.wallets.get("7")).toEqual(wallet)
        expect(seen).toEqual([
          "POST /open/v1/auth/token ",
          "GET /open/v1/wallets/7 Bearer token-1",
          "GET /open/v1/wallets/7 Bearer token-1",
          "POST /open/v1/auth/token ",
          "GET /open/v1/wallets/7 Bearer token-2"
        ])
        // An ID that is not a positive integer never reaches a URL.
        expect(await rejectionOf(client.wallets.get("../settings/webhook"))).toBeInstanceOf(CollectorValidationError)
        expect(seen).toHaveLength(5)
      } finally {
        stub.closeAllConnections()
        await new Promise((resolve) => stub.close(resolve))
      }
    }))

  it("refuses bad options with a message naming the option", () => {
    expect(() => new CollectorClient({ baseUrl: "not a url", appId: "1", appSecret: "s" })).toThrow(/baseUrl/)
    expect(() => new CollectorClient({ baseUrl: "http://x", appId: "", appSecret: "s" })).toThrow(/appId/)
    expect(() => new CollectorClient({ baseUrl: "http://x", appId: "1", appSecret: "" })).toThrow(/appSecret/)
    expect(() => new CollectorClient({ baseUrl: "http://x", appId: "1", appSecret: "s", timeoutMs: 1.5 })).toThrow(/timeoutMs/)
  })
})
