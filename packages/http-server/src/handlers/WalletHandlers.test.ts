import { SqlClient } from "@effect/sql"
import { Secrets } from "@collector/core"
import { expect, layer } from "@effect/vitest"
import { AesGcmSecretBox, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { call, tokenFor } from "../testing/Calls.js"
import { provisionTenant } from "../testing/Tenants.js"
import { CapturedLogs, ServerUrl, TestServerLive } from "../testing/TestServer.js"

const body = (customId: string, requestId: string = randomUUID()) => JSON.stringify({ custom_id: customId, request_id: requestId })

const setup = Effect.gen(function*() {
  const url = yield* ServerUrl
  const tenant = yield* provisionTenant(["nile", "main"])
  const nile = tenant.apps[0]!
  const main = tenant.apps[1]!
  const nileToken = yield* tokenFor(url, nile)
  const create = (json: string) => call(url, nile, nileToken, "POST", "/open/v1/wallets", json)
  const get = (target: string) => call(url, nile, nileToken, "GET", target)
  return { url, tenant, nile, main, nileToken, create, get }
})

const walletCount = (customId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ n: string }>`SELECT count(*)::text AS n FROM wallets WHERE custom_id = ${customId}`, (r) => Number(r[0]!.n)))

// Rate limits have their own suite; here 50 concurrent duplicates must all reach idempotency.
layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("wallet operations", (it) => {
  it.effect("creates a wallet and returns exactly its identity", () =>
    Effect.gen(function*() {
      const { create, get } = yield* setup
      const data = expectOk(yield* create(body("user-42")))
      expect(Object.keys(data).sort()).toEqual(["address", "chain", "created_at", "custom_id", "id", "network"])
      expect(data).toMatchObject({ custom_id: "user-42", chain: "TRON", network: "nile" })
      expect(data.id).toMatch(/^[1-9][0-9]*$/)
      expect(data.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
      const detail = expectOk(yield* get(`/open/v1/wallets/${data.id}`))
      expect(detail).toEqual({
        id: data.id,
        address: data.address,
        custom_id: "user-42",
        chain: "TRON",
        network: "nile",
        collection_status: "idle",
        balance_usdt: null,
        balance_trx: null,
        balance_block: "0",
        destination: "",
        collected_usdt: "0",
        last_collected_at: null,
        created_at: data.created_at
      })
    }))

  it.effect("replays the saved response byte for byte and rejects changed parameters", () =>
    Effect.gen(function*() {
      const { create } = yield* setup
      const requestId = randomUUID()
      const first = yield* create(body("replayed", requestId))
      const again = yield* create(body("replayed", requestId))
      expect(JSON.stringify(expectOk(again))).toBe(JSON.stringify(expectOk(first)))
      // Key order is not a parameter change: the digest is over the parsed body.
      const reordered = yield* create(JSON.stringify({ request_id: requestId, custom_id: "replayed" }))
      expect(JSON.stringify(expectOk(reordered))).toBe(JSON.stringify(expectOk(first)))
      const changed = yield* create(body("something-else", requestId))
      expectError(changed, 409, "IDEMPOTENCY_CONFLICT")
      expect(changed.json.message).toMatch(/^conflict: idempotency key already used with another request/)
      expect(yield* walletCount("replayed")).toBe(1)
      expect(yield* walletCount("something-else")).toBe(0)
    }))

  it.effect("50 concurrent duplicates create one wallet and all get its identity", () =>
    Effect.gen(function*() {
      const { create } = yield* setup
      const json = body("concurrent")
      const responses = yield* Effect.all(Array.from({ length: 50 }, () => create(json)), { concurrency: "unbounded" })
      const datas = responses.map((r) => JSON.stringify(expectOk(r)))
      expect(new Set(datas).size).toBe(1)
      expect(yield* walletCount("concurrent")).toBe(1)
    }), { timeout: 60_000 })

  it.effect("a duplicate custom_id is a saved 409 BUSINESS_CONFLICT", () =>
    Effect.gen(function*() {
      const { create } = yield* setup
      expectOk(yield* create(body("taken")))
      const requestId = randomUUID()
      const duplicate = yield* create(body("taken", requestId))
      expectError(duplicate, 409, "BUSINESS_CONFLICT")
      const replay = yield* create(body("taken", requestId))
      expectError(replay, 409, "BUSINESS_CONFLICT")
      expect(replay.json.message).toBe(duplicate.json.message)
      expect(yield* walletCount("taken")).toBe(1)
    }))

  it.effect("custom_id is unique per tenant and network, not across them", () =>
    Effect.gen(function*() {
      const { main, url } = yield* setup
      const other = yield* provisionTenant(["nile"])
      const otherToken = yield* tokenFor(url, other.app)
      const mainToken = yield* tokenFor(url, main)
      expectOk(yield* call(url, other.app, otherToken, "POST", "/open/v1/wallets", body("shared-id")))
      expectOk(yield* call(url, main, mainToken, "POST", "/open/v1/wallets", body("shared-id")))
    }))

  it.effect("validates custom_id and request_id at their byte and character limits", () =>
    Effect.gen(function*() {
      const { create } = yield* setup
      expectOk(yield* create(body("a".repeat(32))))
      expectError(yield* create(body("a".repeat(33))), 400, "INVALID_ARGUMENT")
      expectOk(yield* create(body("é".repeat(32))))
      expectError(yield* create(body(" padded")), 400, "INVALID_ARGUMENT")
      expectError(yield* create(body("padded ")), 400, "INVALID_ARGUMENT")
      expectError(yield* create(body("")), 400, "INVALID_ARGUMENT")
      // U+0000 cannot be stored in PostgreSQL text: a 400, never a 500.
      expectError(yield* create(body("nul\u0000id")), 400, "INVALID_ARGUMENT")
      expectError(yield* create(body("nul-rid", `${randomUUID()}\u0000`)), 400, "INVALID_ARGUMENT")
      // 16 and 128 UTF-8 bytes pass; 15 and 129 fail, with a two-byte character at the edge.
      expectOk(yield* create(body("rid-16", "é" + "a".repeat(14))))
      expectError(yield* create(body("rid-15", "é" + "a".repeat(13))), 400, "INVALID_ARGUMENT")
      expectOk(yield* create(body("rid-128", "a".repeat(126) + "é")))
      const tooLong = yield* create(body("rid-129", "a".repeat(127) + "é"))
      expectError(tooLong, 400, "INVALID_ARGUMENT")
      expect(tooLong.json.message).toContain("request_id")
    }))

  it.effect("rejects unknown, missing and mistyped fields", () =>
    Effect.gen(function*() {
      const { create } = yield* setup
      const unknown = yield* create(JSON.stringify({ custom_id: "u", request_id: randomUUID(), extra: 1 }))
      expectError(unknown, 400, "INVALID_ARGUMENT")
      expect(unknown.json.message).toContain("extra")
      expectError(yield* create(JSON.stringify({ custom_id: "u" })), 400, "INVALID_ARGUMENT")
      expectError(yield* create(JSON.stringify({ custom_id: 7, request_id: randomUUID() })), 400, "INVALID_ARGUMENT")
      expectError(yield* create(`{"custom_id":"u","custom_id":"v","request_id":"${randomUUID()}"}`), 400, "INVALID_ARGUMENT")
    }))

  it.effect("wallet detail: 404 for another tenant or network, 400 for a bad ID or any query", () =>
    Effect.gen(function*() {
      const { create, get, main, url } = yield* setup
      const wallet = expectOk(yield* create(body("mine")))
      const other = yield* provisionTenant(["nile"])
      const otherToken = yield* tokenFor(url, other.app)
      expectError(yield* call(url, other.app, otherToken, "GET", `/open/v1/wallets/${wallet.id}`), 404, "RESOURCE_NOT_FOUND")
      const mainToken = yield* tokenFor(url, main)
      expectError(yield* call(url, main, mainToken, "GET", `/open/v1/wallets/${wallet.id}`), 404, "RESOURCE_NOT_FOUND")
      expectError(yield* get("/open/v1/wallets/9223372036854775807"), 404, "RESOURCE_NOT_FOUND")
      for (const bad of ["0", "01", "-1", "+1", "abc", "1.0", "9223372036854775808"]) {
        expectError(yield* get(`/open/v1/wallets/${bad}`), 400, "INVALID_ARGUMENT")
      }
      expectError(yield* get(`/open/v1/wallets/${wallet.id}?network=nile`), 400, "INVALID_ARGUMENT")
      expectError(yield* get(`/open/v1/wallets/${wallet.id}?`), 400, "INVALID_ARGUMENT")
    }))

  it.effect("no private key appears in any response or log line", () =>
    Effect.gen(function*() {
      const { create, get } = yield* setup
      const texts: Array<string> = []
      for (let i = 0; i < 5; i++) {
        const created = yield* create(body(`secret-scan-${i}`))
        texts.push(created.text)
        texts.push((yield* get(`/open/v1/wallets/${created.json.data.id}`)).text)
      }
      const sql = yield* SqlClient.SqlClient
      const box = AesGcmSecretBox.make(yield* MasterKeyring, NodeEntropy.make)
      const rows = yield* sql<{ key_id: string; sealed_key: Uint8Array; address: string }>`
        SELECT k.key_id, k.sealed_key, w.address FROM wallet_keys k JOIN wallets w ON w.id = k.wallet_id WHERE w.custom_id LIKE 'secret-scan-%'`
      expect(rows.length).toBe(5)
      const haystack = [...texts, ...(yield* CapturedLogs).lines].join("\n").toLowerCase()
      for (const row of rows) {
        const key = yield* box.open({ keyId: row.key_id, blob: row.sealed_key }, Secrets.walletKeyContext(row.address))
        const hex = Buffer.from(key).toString("hex")
        expect(haystack).not.toContain(hex)
        expect(haystack).not.toContain(Buffer.from(key).toString("base64").toLowerCase())
        expect(haystack).not.toContain(Buffer.from(row.sealed_key).toString("hex"))
      }
    }))
})
