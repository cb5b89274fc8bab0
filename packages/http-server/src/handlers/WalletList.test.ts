import { expect, layer } from "@effect/vitest"
import { Ok, WalletList } from "@collector/api"
import { Effect, Schema } from "effect"
import { TestServerLive } from "../testing/TestServer.js"
import { expectInvalid, idsOf, listTarget, maxAmount, pastMaxAmount, setWalletState, sixWallets, synced, tenantClients } from "../testing/Wallets.js"

const walletKeys = [
  "address", "balance_block", "balance_trx", "balance_usdt", "chain", "collected_usdt", "collection_status", "created_at", "custom_id",
  "destination", "id", "last_collected_at", "network"
]

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("wallet list", (it) => {
  it.effect("defaults: page 1 of 20, newest first, every field of a wallet, nothing unavailable", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const empty = yield* client.list()
      expect(empty).toEqual({ network: "nile", items: [], total: 0, page: 1, page_size: 20, unavailable_wallet_ids: [] })
      const created = yield* client.createWallets(3)
      const data = yield* client.list()
      expect(Object.keys(data).sort()).toEqual(["items", "network", "page", "page_size", "total", "unavailable_wallet_ids"])
      expect({ ...data, items: idsOf(data) }).toEqual({
        network: "nile",
        items: created.map((w) => w.id).reverse(),
        total: 3,
        page: 1,
        page_size: 20,
        unavailable_wallet_ids: []
      })
      expect(Object.keys(data.items[0]).sort()).toEqual(walletKeys)
      expect(data.items[2]).toEqual({
        id: created[0]!.id,
        address: created[0]!.address,
        custom_id: "w-1",
        chain: "TRON",
        network: "nile",
        collection_status: "idle",
        balance_usdt: null,
        balance_trx: null,
        balance_block: "0",
        destination: "",
        collected_usdt: "0",
        last_collected_at: null,
        created_at: created[0]!.created_at
      })
    }))

  // The page is answered without a second pass through its schema (PresentedOk): what goes on the
  // wire must still be exactly the schema's encoding, every value valid and the members in order.
  it.effect("the page on the wire is byte for byte its schema's encoding, synced, collected and unsynced wallets alike", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const [fresh, rich, collected] = yield* client.createWallets(3)
      yield* setWalletState(rich!.id, synced(maxAmount, "1"))
      yield* setWalletState(collected!.id, { ...synced("0", "0"), collected: "123456", lastCollectedAt: "2026-11-27T10:00:00.000Z" })
      const res = yield* client.get(listTarget())
      expect(res.status).toBe(200)
      expect(res.headers["content-type"]).toBe("application/json")
      const page = Ok(WalletList)
      const decoded = Schema.decodeUnknownSync(page)(res.json)
      expect(decoded.items.map((w) => w.id)).toEqual([collected!.id, rich!.id, fresh!.id])
      expect(res.text).toBe(JSON.stringify(Schema.encodeSync(page)(decoded)))
    }))

  it.effect("pages: sizes, offsets, a page past the last with the true total, empty parameters as defaults", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const ids = (yield* client.createWallets(25)).map((w) => w.id).reverse()
      const first = yield* client.list()
      expect([idsOf(first), first.total, first.page, first.page_size]).toEqual([ids.slice(0, 20), 25, 1, 20])
      const second = yield* client.list({ page: "2" })
      expect([idsOf(second), second.total, second.page]).toEqual([ids.slice(20), 25, 2])
      const middle = yield* client.list({ page: "2", page_size: "10" })
      expect([idsOf(middle), middle.total, middle.page, middle.page_size]).toEqual([ids.slice(10, 20), 25, 2, 10])
      expect(idsOf(yield* client.list({ page_size: "1" }))).toEqual([ids[0]])
      expect(idsOf(yield* client.list({ page_size: "100" }))).toEqual(ids)
      // The deepest page allowed (100,000 rows in); deeper ones are refused (TenantBounds.test.ts).
      const beyonds: ReadonlyArray<Record<string, string>> = [{ page: "3" }, { page: "26", page_size: "1" }, { page: "1001", page_size: "100" }]
      for (const beyond of beyonds) {
        const data = yield* client.list(beyond)
        expect([data.items, data.total, data.page], JSON.stringify(beyond)).toEqual([[], 25, Number(beyond.page)])
      }
      const blank = yield* client.list({
        page: "", page_size: "", sort: "", order: "", address: "", usdt_min: "", usdt_max: "", trx_min: "", trx_max: "",
        hide_zero: "", hide_zero_trx: "", last_collected_from: "", last_collected_to: "", selected_wallet_ids: ""
      })
      expect([idsOf(blank), blank.total, blank.page, blank.page_size, blank.unavailable_wallet_ids]).toEqual([ids.slice(0, 20), 25, 1, 20, []])
    }))

  it.effect("invalid paging is 400 `invalid request: invalid pagination`", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const bad: ReadonlyArray<Record<string, string>> = [
        { page: "0" }, { page: "-1" }, { page: "abc" }, { page: "1.5" }, { page: "+1" }, { page: " 1" },
        { page_size: "0" }, { page_size: "101" }, { page_size: "-5" }, { page_size: "1.5" }, { page_size: "ten" }
      ]
      for (const params of bad) {
        expectInvalid(yield* client.get(listTarget(params)), "invalid request: invalid pagination")
      }
    }))

  it.effect("sorts by each field both ways: ties by ID descending, nulls last in both orders", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const { order } = yield* sixWallets(client)
      const expected: Record<string, [string, string]> = {
        created_at: ["w1,w2,w3,w4,w5,w6", "w6,w5,w4,w3,w2,w1"],
        balance_usdt: ["w4,w2,w1,w5,w6,w3", "w5,w2,w1,w4,w6,w3"],
        balance_trx: ["w1,w4,w5,w2,w6,w3", "w5,w2,w4,w1,w6,w3"],
        collected_usdt: ["w6,w5,w1,w3,w4,w2", "w4,w2,w3,w6,w5,w1"],
        last_collected_at: ["w3,w4,w2,w6,w5,w1", "w4,w2,w3,w6,w5,w1"]
      }
      for (const [sort, [asc, desc]] of Object.entries(expected)) {
        expect(idsOf(yield* client.list({ sort, order: "asc" })), `${sort} asc`).toEqual(order(asc))
        expect(idsOf(yield* client.list({ sort, order: "desc" })), `${sort} desc`).toEqual(order(desc))
        expect(idsOf(yield* client.list({ sort })), `${sort} default order`).toEqual(order(desc))
      }
      // Ties and nulls continue correctly across a page boundary.
      const paged = [
        ...idsOf(yield* client.list({ sort: "balance_usdt", order: "asc", page_size: "4" })),
        ...idsOf(yield* client.list({ sort: "balance_usdt", order: "asc", page_size: "4", page: "2" }))
      ]
      expect(paged).toEqual(order("w4,w2,w1,w5,w6,w3"))
      expect(idsOf(yield* client.list({ order: "asc" }))).toEqual(order("w1,w2,w3,w4,w5,w6"))
    }))

  it.effect("an invalid sort field or order is 400", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      for (const sort of ["id", "BALANCE_USDT", "balance_usdt ", "created_at,id", "custom_id"]) {
        expectInvalid(yield* client.get(listTarget({ sort })), "invalid request: invalid sort field")
      }
      for (const order of ["ASC", "Desc", "up", "ascending", "1"]) {
        expectInvalid(yield* client.get(listTarget({ order })), "invalid request: order must be asc or desc")
      }
    }))

  it.effect("unknown or repeated query keys are 400", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      for (const target of ["/open/v1/wallets?foo=1", "/open/v1/wallets?network=nile", "/open/v1/wallets?tenant_id=1", "/open/v1/wallets?Page=1"]) {
        expectInvalid(yield* client.get(target))
      }
      expectInvalid(yield* client.get("/open/v1/wallets?page=1&page=2"))
    }))

  it.effect("amount bounds are inclusive, never match unsynced wallets, and a minimum above its maximum is empty", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const { order, w5 } = yield* sixWallets(client)
      const cases: ReadonlyArray<[Record<string, string>, string]> = [
        [{ usdt_min: "500", usdt_max: "500" }, "w2,w1"],
        [{ usdt_min: "500" }, "w5,w2,w1"],
        [{ usdt_min: "501" }, "w5"],
        [{ usdt_max: "499" }, "w4"],
        [{ usdt_min: "0" }, "w5,w4,w2,w1"],
        [{ usdt_max: "0" }, "w4"],
        [{ usdt_max: maxAmount }, "w5,w4,w2,w1"],
        [{ trx_min: "20", trx_max: "30" }, "w5,w4,w2"],
        [{ trx_max: "0" }, "w1"],
        [{ trx_min: "31" }, ""],
        [{ usdt_min: "500", trx_min: "1" }, "w5,w2"],
        [{ usdt_min: "501", usdt_max: "500" }, ""],
        [{ trx_min: "30", trx_max: "20" }, ""],
        [{ usdt_min: "1000", usdt_max: "0" }, ""]
      ]
      for (const [params, names] of cases) {
        const data = yield* client.list(params)
        expect([idsOf(data), data.total], JSON.stringify(params)).toEqual([order(names), order(names).length])
      }
      // The largest amount is a valid bound and a storable balance.
      yield* setWalletState(w5.id, { usdt: maxAmount })
      const top = yield* client.list({ usdt_min: maxAmount })
      expect([idsOf(top), top.items[0].balance_usdt]).toEqual([[w5.id], maxAmount])
      for (const key of ["usdt_min", "usdt_max", "trx_min", "trx_max"]) {
        for (const bad of [pastMaxAmount, "-1", "01", "1.5", "1e3", " 1", "+1", "0x10", "abc"]) {
          expectInvalid(yield* client.get(listTarget({ [key]: bad })), `invalid request: ${key} must be an integer from 0 to 2^256-1`)
        }
      }
    }))

  it.effect("hide_zero and hide_zero_trx keep positive balances only, alone and together; unsynced wallets never match", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const { order } = yield* sixWallets(client)
      const cases: ReadonlyArray<[Record<string, string>, string]> = [
        [{ hide_zero: "true" }, "w5,w2,w1"],
        [{ hide_zero_trx: "true" }, "w5,w4,w2"],
        [{ hide_zero: "true", hide_zero_trx: "true" }, "w5,w2"],
        [{ hide_zero: "false", hide_zero_trx: "false" }, "w6,w5,w4,w3,w2,w1"],
        [{ hide_zero: "true", usdt_max: "999" }, "w2,w1"]
      ]
      for (const [params, names] of cases) {
        const data = yield* client.list(params)
        expect([idsOf(data), data.total], JSON.stringify(params)).toEqual([order(names), order(names).length])
      }
      for (const bad of ["TRUE", "1", "yes", "0"]) {
        expectInvalid(yield* client.get(listTarget({ hide_zero: bad })), "invalid request: hide_zero must be true or false")
        expectInvalid(yield* client.get(listTarget({ hide_zero_trx: bad })), "invalid request: hide_zero_trx must be true or false")
      }
    }))
})
