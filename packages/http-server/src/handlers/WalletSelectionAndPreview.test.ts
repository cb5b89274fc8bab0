import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectOk } from "../testing/Assertions.js"
import { TestServerLive } from "../testing/TestServer.js"
import { expectInvalid, maxAmount, setWalletState, sixWallets, synced, tenantClients } from "../testing/Wallets.js"

const selection = "/open/v1/wallets/selection"
const preview = "/open/v1/wallets/preview"

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("wallet selection and preview", (it) => {
  it.effect("selection: every matching ID ascending with the total; no filters means all", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const { order } = yield* sixWallets(client)
      const select = (body: unknown) => Effect.map(client.post(selection, body), expectOk)
      const all = yield* select({})
      expect(all).toEqual({ network: "nile", wallet_ids: order("w1,w2,w3,w4,w5,w6"), total: 6, unavailable_wallet_ids: [] })
      expect(yield* select({ filters: {} })).toEqual(all)
      const cases: ReadonlyArray<[Record<string, string>, string]> = [
        [{ hide_zero: "true" }, "w1,w2,w5"],
        [{ hide_zero_trx: "true" }, "w2,w4,w5"],
        [{ hide_zero: "true", hide_zero_trx: "true" }, "w2,w5"],
        [{ usdt_min: "500", usdt_max: "500" }, "w1,w2"],
        [{ usdt_min: "501", usdt_max: "500" }, ""],
        [{ trx_max: maxAmount, trx_min: "0" }, "w1,w2,w4,w5"],
        [{ last_collected_from: "2026-01-01T00:00:00.123456Z" }, "w2,w3,w4"],
        [{ last_collected_from: "2026-01-01T00:00:00.123457Z" }, "w2,w4"],
        [{ last_collected_to: "2026-01-01T08:00:00.123456+08:00" }, "w3"],
        [{ address: "" , usdt_min: "", usdt_max: "", hide_zero: "", last_collected_from: "", last_collected_to: "" }, "w1,w2,w3,w4,w5,w6"],
        [{ hide_zero: "false" }, "w1,w2,w3,w4,w5,w6"]
      ]
      for (const [filters, names] of cases) {
        const data = yield* select({ filters })
        expect([data.wallet_ids, data.total], JSON.stringify(filters)).toEqual([order(names), order(names).length])
      }
    }))

  it.effect("selection: the same validation as the list, strict fields, and no request_id", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const bad = (body: unknown, message?: string) => Effect.map(client.post(selection, body), (res) => expectInvalid(res, message))
      yield* bad({ filters: { last_collected_from: "2026-01-02T00:00:00Z", last_collected_to: "2026-01-01T00:00:00Z" } },
        "invalid request: last_collected_from exceeds last_collected_to")
      yield* bad({ filters: { last_collected_from: "2026-01-01" } }, "invalid request: last_collected_from must be an RFC 3339 time with a zone")
      yield* bad({ filters: { usdt_min: "01" } }, "invalid request: usdt_min must be an integer from 0 to 2^256-1")
      yield* bad({ filters: { trx_max: (2n ** 256n).toString() } }, "invalid request: trx_max must be an integer from 0 to 2^256-1")
      yield* bad({ filters: { hide_zero: "yes" } }, "invalid request: hide_zero must be true or false")
      yield* bad({ filters: { address: "a".repeat(101) } }, "invalid request: address must be at most 100 UTF-8 bytes")
      // Only filter fields: paging, sorting and selection belong to the list.
      for (const field of ["sort", "order", "page", "page_size", "selected_wallet_ids", "foo"]) {
        yield* bad({ filters: { [field]: "1" } })
      }
      // Filters are the list's string forms.
      yield* bad({ filters: { hide_zero: true } })
      yield* bad({ filters: { usdt_min: 500 } })
      yield* bad({ filters: null })
      yield* bad({ filters: [] })
      yield* bad({ request_id: randomUUID() })
      yield* bad({ filters: {}, request_id: randomUUID() })
      yield* bad({ sort: "balance_usdt" })
      yield* bad({ extra: 1 })
      yield* bad("[]")
      yield* bad("null")
    }))

  it.effect("selection: the collection wallet is listed as unavailable while it matches", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const { w1, w2, w3, order } = yield* sixWallets(client)
      expectOk(yield* client.setCollection(w2.address))
      const select = (filters: Record<string, string>) => Effect.map(client.post(selection, { filters }), expectOk)
      expect(yield* select({})).toEqual({ network: "nile", wallet_ids: order("w1,w2,w3,w4,w5,w6"), total: 6, unavailable_wallet_ids: [w2.id] })
      expect((yield* select({ usdt_min: "500" })).unavailable_wallet_ids).toEqual([w2.id])
      expect(yield* select({ address: w1.address })).toEqual({ network: "nile", wallet_ids: [w1.id], total: 1, unavailable_wallet_ids: [] })
      expect((yield* select({ hide_zero_trx: "true", trx_max: "20" })).unavailable_wallet_ids).toEqual([])
      expectOk(yield* client.setCollection(w3.address))
      expect((yield* select({})).unavailable_wallet_ids).toEqual([w3.id])
    }))

  it.effect("selection and preview never see another tenant's or the other network's wallets", () =>
    Effect.gen(function*() {
      const { clients } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [typeof clients[0], typeof clients[0]]
      const other = (yield* tenantClients()).client
      const [mine] = yield* nile.createWallets(1, "mine")
      const [onMain] = yield* main.createWallets(1, "main")
      const [theirs] = yield* other.createWallets(1, "theirs")
      expect(expectOk(yield* nile.post(selection, {}))).toEqual({ network: "nile", wallet_ids: [mine!.id], total: 1, unavailable_wallet_ids: [] })
      expect(expectOk(yield* main.post(selection, {}))).toEqual({ network: "main", wallet_ids: [onMain!.id], total: 1, unavailable_wallet_ids: [] })
      const data = expectOk(yield* nile.post(preview, { wallet_ids: [theirs!.id, onMain!.id, mine!.id] }))
      expect([data.network, data.items.map((w: any) => w.id), data.not_found_ids]).toEqual(["nile", [mine!.id], [onMain!.id, theirs!.id].sort((a, b) => Number(a) - Number(b))])
    }))

  it.effect("preview: balances and availability ID ascending, unknown IDs ascending in not_found_ids, duplicates once", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const [w1, w2, w3] = yield* client.createWallets(3)
      yield* setWalletState(w1!.id, synced("1500000", "0"))
      yield* setWalletState(w3!.id, { ...synced(maxAmount, "42"), block: "77777", collected: "9", lastCollectedAt: "2026-01-01T00:00:00Z" })
      expectOk(yield* client.setCollection(w2!.address))
      const data = expectOk(yield* client.post(preview, {
        wallet_ids: [w3!.id, "9223372036854775807", w1!.id, "99999999", w2!.id, w1!.id, "99999999", "9"]
      }))
      const item = (w: typeof w1, rest: Record<string, unknown>) => ({ id: w!.id, address: w!.address, custom_id: w!.custom_id, collection_status: "idle", ...rest })
      expect(data).toEqual({
        network: "nile",
        items: [
          item(w1, { balance_usdt: "1500000", balance_trx: "0", balance_block: "100", available: true, unavailable_reason: "" }),
          item(w2, { balance_usdt: null, balance_trx: null, balance_block: "0", available: false, unavailable_reason: "collection_address" }),
          item(w3, { balance_usdt: maxAmount, balance_trx: "42", balance_block: "77777", available: true, unavailable_reason: "" })
        ],
        not_found_ids: ["9", "99999999", "9223372036854775807"]
      })
      const unknownOnly = expectOk(yield* client.post(preview, { wallet_ids: ["123456789"] }))
      expect(unknownOnly).toEqual({ network: "nile", items: [], not_found_ids: ["123456789"] })
      // Exactly 1000 IDs are accepted.
      const thousand = Array.from({ length: 1000 }, (_, i) => String(1_000_000 + i))
      const big = expectOk(yield* client.post(preview, { wallet_ids: [...thousand].reverse() }))
      expect([big.items, big.not_found_ids]).toEqual([[], thousand])
    }))

  it.effect("preview: an empty list, over 1000 IDs, bad IDs, extra fields and a request_id are 400", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const [w] = yield* client.createWallets(1)
      const bad = (body: unknown) => Effect.map(client.post(preview, body), (res) => expectInvalid(res))
      yield* bad({ wallet_ids: [] })
      yield* bad({ wallet_ids: Array.from({ length: 1001 }, (_, i) => String(i + 1)) })
      for (const id of ["0", "01", "-1", "+1", "abc", "1.0", "9223372036854775808", ""]) yield* bad({ wallet_ids: [id] })
      yield* bad({ wallet_ids: [Number(w!.id)] })
      yield* bad({ wallet_ids: w!.id })
      yield* bad({ wallet_ids: null })
      yield* bad({})
      yield* bad({ wallet_ids: [w!.id], request_id: randomUUID() })
      yield* bad({ wallet_ids: [w!.id], extra: true })
      yield* bad(`{"wallet_ids":["${w!.id}"],"wallet_ids":["${w!.id}"]}`)
    }))
})
