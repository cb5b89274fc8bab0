import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectOk } from "../testing/Assertions.js"
import { TestServerLive } from "../testing/TestServer.js"
import { expectInvalid, externalAddress, idsOf, listTarget, setWalletState, sixWallets, tenantClients } from "../testing/Wallets.js"

const exceeds = "invalid request: last_collected_from exceeds last_collected_to"
const badTime = (key: string) => `invalid request: ${key} must be an RFC 3339 time with a zone`

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("wallet list filters", (it) => {
  it.effect("last_collected_from/to are inclusive at microsecond precision, in any zone, and exclude never-collected wallets", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const { order } = yield* sixWallets(client)
      const cases: ReadonlyArray<[Record<string, string>, string]> = [
        [{ last_collected_from: "1970-01-01T00:00:00Z" }, "w4,w3,w2"],
        [{ last_collected_to: "2999-12-31T23:59:59.999999Z" }, "w4,w3,w2"],
        [{ last_collected_from: "2026-01-01T00:00:00.123456Z" }, "w4,w3,w2"],
        [{ last_collected_from: "2026-01-01T00:00:00.123457Z" }, "w4,w2"],
        [{ last_collected_to: "2026-01-01T00:00:00.123456Z" }, "w3"],
        [{ last_collected_to: "2026-01-01T00:00:00.123455Z" }, ""],
        [{ last_collected_from: "2026-01-01T08:00:00.123456+08:00" }, "w4,w3,w2"],
        [{ last_collected_from: "2026-01-01T08:00:00.123457+08:00" }, "w4,w2"],
        [{ last_collected_to: "2025-12-31T19:00:00.123456-05:00" }, "w3"],
        [{ last_collected_from: "2026-01-01T00:00:00.123456Z", last_collected_to: "2026-01-01T00:00:00.123456Z" }, "w3"],
        [{ last_collected_from: "2026-01-02T00:00:00Z", last_collected_to: "2026-01-02T00:00:00Z" }, "w4,w2"],
        [{ last_collected_from: "2026-01-02T09:00:00+09:00", last_collected_to: "2026-01-01T19:00:00-05:00" }, "w4,w2"],
        [{ last_collected_from: "2026-01-01T00:00:00.1234561Z", last_collected_to: "2026-01-01T00:00:00.1234569Z" }, ""],
        [{ last_collected_from: "2026-01-01t00:00:00.123456z" }, "w4,w3,w2"],
        [{ last_collected_from: "2026-01-03T00:00:00Z" }, ""]
      ]
      for (const [params, names] of cases) {
        const data = yield* client.list(params)
        expect([idsOf(data), data.total], JSON.stringify(params)).toEqual([order(names), order(names).length])
      }
      // A raw `+` in the query is a plus sign, as in the signature's canonical query, not a space.
      expect(idsOf(expectOk(yield* client.get("/open/v1/wallets?last_collected_from=2026-01-01T08:00:00.123457+08:00")))).toEqual(order("w4,w2"))
      expect(idsOf(expectOk(yield* client.get("/open/v1/wallets?last_collected_to=2026-01-01T08:00:00.123456+08:00")))).toEqual(order("w3"))
      // Sorting by collection time under a time filter: the filter already dropped the nulls.
      expect(idsOf(yield* client.list({ last_collected_from: "2000-01-01T00:00:00Z", sort: "last_collected_at", order: "asc" })))
        .toEqual(order("w3,w4,w2"))
    }))

  it.effect("from later than to is 400 with the exact message, compared as instants; malformed times are 400", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const later: ReadonlyArray<[string, string]> = [
        ["2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"],
        ["2026-01-01T00:00:00.000001Z", "2026-01-01T00:00:00Z"],
        ["2026-01-01T00:00:00.000001Z", "2026-01-01T08:00:00+08:00"],
        ["2026-01-01T00:00:00-00:01", "2026-01-01T00:00:59.999999Z"]
      ]
      for (const [from, to] of later) {
        expectInvalid(yield* client.get(listTarget({ last_collected_from: from, last_collected_to: to })), exceeds)
      }
      expect((yield* client.list({ last_collected_from: "2026-01-01T08:00:00+08:00", last_collected_to: "2026-01-01T00:00:00Z" })).total).toBe(0)
      const malformed = [
        "2026-01-01", "2026-01-01T00:00:00", "2026-01-01 00:00:00Z", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
        "2026-01-01T24:00:00Z", "2026-01-01T00:00:00+0800", "2026-01-01T00:00:00.Z", "1767225600", "yesterday",
        "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+08:60", "2026-01-01T00:00:00.1234567890Z"
      ]
      for (const text of malformed) {
        for (const key of ["last_collected_from", "last_collected_to"]) {
          expectInvalid(yield* client.get(listTarget({ [key]: text })), badTime(key))
        }
      }
    }))

  it.effect("every valid RFC 3339 time is a 200: early years and the widest zone offsets", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const { order } = yield* sixWallets(client)
      const cases: ReadonlyArray<[Record<string, string>, string]> = [
        [{ last_collected_from: "0099-01-01T00:00:00Z", last_collected_to: "1998-01-01T00:00:00Z" }, ""],
        [{ last_collected_from: "0001-01-01T00:00:00Z" }, "w4,w3,w2"],
        [{ last_collected_to: "9999-12-31T23:59:59.999999Z" }, "w4,w3,w2"],
        [{ last_collected_from: "0000-01-01T00:00:00+23:59", last_collected_to: "9999-12-31T23:59:59-23:59" }, "w4,w3,w2"],
        [{ last_collected_from: "0000-02-29T00:00:00Z", last_collected_to: "0000-03-01T00:00:00Z" }, ""],
        [{ last_collected_from: "2026-01-01T00:00:00.123456000Z" }, "w4,w3,w2"],
        [{ last_collected_from: "2026-01-01T00:00:00.123456001Z" }, "w4,w2"],
        [{ last_collected_to: "2026-01-01T00:00:00.123456999Z" }, "w3"],
        [{ last_collected_from: "2026-01-01T23:59:00+23:59" }, "w4,w3,w2"],
        [{ last_collected_to: "2025-12-31T00:01:00.123456-23:59" }, "w3"],
        [{ last_collected_to: "2025-12-31T00:01:00.123455-23:59" }, ""]
      ]
      for (const [params, names] of cases) {
        const data = yield* client.list(params)
        expect([idsOf(data), data.total], JSON.stringify(params)).toEqual([order(names), order(names).length])
      }
    }))

  it.effect("address: case-insensitive contains with % and _ wildcards, a literal backslash, at most 100 UTF-8 bytes", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const [a, b] = yield* client.createWallets(2)
      const onlyA = [a!.id]
      const part = a!.address.slice(5, 15)
      const cases: ReadonlyArray<[string, ReadonlyArray<string>]> = [
        [a!.address, onlyA],
        [part, onlyA],
        [part.toLowerCase(), onlyA],
        [part.toUpperCase(), onlyA],
        [`${a!.address.slice(0, 4)}%${a!.address.slice(-4)}`, onlyA],
        [`${a!.address.slice(0, 10)}_${a!.address.slice(11)}`, onlyA],
        [`${a!.address.slice(0, 10)}__${a!.address.slice(11)}`, []],
        ["%", [b!.id, a!.id]],
        ["_", [b!.id, a!.id]],
        ["t", [b!.id, a!.id]],
        // A backslash is a literal character, not LIKE's escape: `\T` never matches a Base58 address.
        ["\\T", []],
        ["\\", []],
        ["\\%", []],
        [`${a!.address}x`, []]
      ]
      for (const [address, ids] of cases) {
        const data = yield* client.list({ address })
        expect([idsOf(data), data.total], address).toEqual([ids, ids.length])
      }
      expectInvalid(yield* client.get(listTarget({ address: "a".repeat(101) })), "invalid request: address must be at most 100 UTF-8 bytes")
      expectInvalid(yield* client.get(listTarget({ address: "é".repeat(50) + "a" })), "invalid request: address must be at most 100 UTF-8 bytes")
      expectInvalid(yield* client.get(listTarget({ address: "€".repeat(34) })), "invalid request: address must be at most 100 UTF-8 bytes")
      for (const ok of ["a".repeat(100), "é".repeat(50), "€".repeat(33) + "a"]) {
        expect((yield* client.list({ address: ok })).total, ok).toBe(0)
      }
      expect((yield* client.list({ address: "" })).total).toBe(2)
      // Text the database cannot hold is a bad parameter, not an internal error.
      expectInvalid(yield* client.get("/open/v1/wallets?address=%00"), "invalid request: address must not contain U+0000")
      expectInvalid(yield* client.get("/open/v1/wallets?address=T%00"), "invalid request: address must not contain U+0000")
      expectInvalid(yield* client.post("/open/v1/wallets/selection", { filters: { address: "\u0000" } }), "invalid request: address must not contain U+0000")
      expectInvalid(yield* client.get("/open/v1/wallets?address=%FF"), "invalid request: malformed query string")
    }))

  it.effect("selected_wallet_ids: at most 1000 canonical IDs; the collection wallet is unavailable on the page or when named", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const ws = yield* client.createWallets(4)
      const [w1, w2, w3, w4] = ws.map((w) => w.id) as [string, string, string, string]
      const thousand = Array.from({ length: 1000 }, (_, i) => String(i + 1)).join(",")
      expect((yield* client.list({ selected_wallet_ids: thousand })).unavailable_wallet_ids).toEqual([])
      expectInvalid(
        yield* client.get(listTarget({ selected_wallet_ids: `${thousand},1001` })),
        "invalid request: selected_wallet_ids accepts at most 1000 IDs"
      )
      for (const bad of ["01", "0", "-1", "+1", "abc", "1,", ",1", "1,,2", "1 ,2", "9223372036854775808", "1.0"]) {
        expectInvalid(
          yield* client.get(listTarget({ selected_wallet_ids: bad })),
          "invalid request: selected_wallet_ids must be positive integer IDs separated by commas"
        )
      }
      // Before any collection address, no wallet is unavailable and destinations are empty.
      const before = yield* client.list({ selected_wallet_ids: `${w1},${w2}` })
      expect([before.unavailable_wallet_ids, before.items.map((w) => w.destination)]).toEqual([[], ["", "", "", ""]])
      // w2 becomes the collection address.
      const address = ws[1]!.address
      expectOk(yield* client.setCollection(address))
      const page = (params: Record<string, string>) => Effect.map(client.list(params), (d) => [idsOf(d), d.unavailable_wallet_ids])
      expect(yield* page({})).toEqual([[w4, w3, w2, w1], [w2]])
      expect(yield* page({ page_size: "1" })).toEqual([[w4], []])
      expect(yield* page({ page_size: "1", selected_wallet_ids: w2 })).toEqual([[w4], [w2]])
      expect(yield* page({ page_size: "1", selected_wallet_ids: `${w1},${w3}` })).toEqual([[w4], []])
      expect(yield* page({ page_size: "1", selected_wallet_ids: `9223372036854775807,${w2},${w2},${w1}` })).toEqual([[w4], [w2]])
      expect(yield* page({ page: "2", page_size: "2" })).toEqual([[w2, w1], [w2]])
      expect(yield* page({ address: ws[0]!.address })).toEqual([[w1], []])
      expect(yield* page({ address: ws[0]!.address, selected_wallet_ids: w2 })).toEqual([[w1], [w2]])
      // Every wallet's destination is the collection address once set.
      expect((yield* client.list()).items.map((w) => w.destination)).toEqual([address, address, address, address])
      // Moving it to an external address frees w2.
      expectOk(yield* client.setCollection(externalAddress))
      const after = yield* client.list({ selected_wallet_ids: w2 })
      expect([after.unavailable_wallet_ids, after.items.map((w) => w.destination)]).toEqual([[], Array(4).fill(externalAddress)])
    }))

  it.effect("only the calling tenant's wallets on the calling network appear, with that scope's settings", () =>
    Effect.gen(function*() {
      const { clients } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [typeof clients[0], typeof clients[0]]
      const other = (yield* tenantClients()).client
      const mine = (yield* nile.createWallets(2, "mine")).map((w) => w.id).reverse()
      const onMain = yield* main.createWallets(1, "main")
      const theirs = yield* other.createWallets(1, "theirs")
      yield* setWalletState(onMain[0]!.id, { usdt: "5", trx: "5", block: "9", collected: "5", lastCollectedAt: "2026-01-01T00:00:00Z" })
      yield* setWalletState(theirs[0]!.id, { usdt: "5", trx: "5", block: "9", collected: "5", lastCollectedAt: "2026-01-01T00:00:00Z" })
      // The other tenant names our wallet as its (for it, external) collection address; main uses its own wallet.
      const foreign = expectOk(yield* other.setCollection((yield* nile.list()).items[0].address))
      expect(foreign.collection_wallet_id).toBeNull()
      expectOk(yield* main.setCollection(onMain[0]!.address))
      const filters: ReadonlyArray<Record<string, string>> = [{}, { hide_zero: "true" }, { usdt_min: "0" }, { last_collected_from: "2000-01-01T00:00:00Z" }, { address: "T" }]
      for (const params of filters) {
        const data = yield* nile.list({ ...params, selected_wallet_ids: `${onMain[0]!.id},${theirs[0]!.id},${mine[0]}` })
        const expected = "address" in params || Object.keys(params).length === 0 ? mine : []
        expect([data.network, idsOf(data), data.total, data.unavailable_wallet_ids], JSON.stringify(params)).toEqual(["nile", expected, expected.length, []])
      }
      expect((yield* nile.list()).items.map((w) => w.destination)).toEqual(["", ""])
      const mainList = yield* main.list()
      expect([mainList.network, idsOf(mainList), mainList.unavailable_wallet_ids, mainList.items[0].destination])
        .toEqual(["main", [onMain[0]!.id], [onMain[0]!.id], onMain[0]!.address])
    }))
})
