import { expect, layer } from "@effect/vitest"
import { seedContract, seedDeposit, seedDeposits, seedSource } from "@collector/postgres/testing"
import { Effect } from "effect"
import { expectOk } from "../testing/Assertions.js"
import { depositKeys, depositsTarget, seedWalletOf } from "../testing/Deposits.js"
import { TestServerLive } from "../testing/TestServer.js"
import { type Client, expectInvalid, tenantClients } from "../testing/Wallets.js"

interface DepositListData {
  readonly network: string
  readonly items: ReadonlyArray<any>
  readonly total: number
  readonly page: number
  readonly page_size: number
}

const list = (client: Client, params: Readonly<Record<string, string>> = {}) =>
  Effect.map(client.get(depositsTarget(params)), (res) => expectOk(res) as DepositListData)

const idsOf = (data: DepositListData) => data.items.map((d) => d.id as string)

/** A tenant on nile with two wallets; `n` deposits alternating between them, IDs ascending. */
const withDeposits = (n: number) =>
  Effect.gen(function*() {
    const { client, tenant } = yield* tenantClients()
    const [a, b] = yield* client.createWallets(2, "dep")
    const wallets = [seedWalletOf(tenant, "nile", a!), seedWalletOf(tenant, "nile", b!)]
    const seeded = yield* Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) => seedDeposit(wallets[i % 2]!, { amount: `${i + 1}` }))
    return { client, tenant, a: a!, b: b!, ids: seeded.map((d) => d.id) }
  })

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("deposit list", (it) => {
  it.effect("every one of the 24 members in its exact format and order, confirmed and reverted alike", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      expect(yield* list(client)).toEqual({ network: "nile", items: [], total: 0, page: 1, page_size: 20 })
      const [wallet] = yield* client.createWallets(1, "shop")
      const seedWallet = seedWalletOf(tenant, "nile", wallet!)
      const solid = yield* seedDeposit(seedWallet, {
        amount: "123456789", logIndex: 3, blockNumber: "65000123", blockHash: "ab".repeat(32),
        blockTime: "2026-03-04T05:06:07.89Z", createdAt: "2026-03-04T05:06:10Z"
      })
      const reverted = yield* seedDeposit(seedWallet, {
        status: "reverted", revision: 2, amount: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
        logIndex: 0, blockNumber: "9223372036854775807", blockHash: null, blockTime: "2026-03-04T05:07:00Z",
        createdAt: "2026-03-04T05:07:09.001Z", confirmationType: "block_3", confirmations: 5
      })
      const data = yield* list(client)
      expect(Object.keys(data)).toEqual(["network", "items", "total", "page", "page_size"])
      expect([idsOf(data), data.total]).toEqual([[reverted.id, solid.id], 2])
      for (const item of data.items) expect(Object.keys(item)).toEqual(depositKeys)
      const common = {
        wallet_id: wallet!.id, custom_id: "shop-1", chain: "TRON", network: "nile", asset: "USDT", token_standard: "TRC20", decimals: 6,
        address: wallet!.address, source: seedSource, contract: seedContract
      }
      expect(data.items[1]).toEqual({
        id: solid.id, event_id: solid.eventId, event_type: "deposit.confirmed", status: "confirmed", ...common,
        amount: "123456789", txid: solid.txid, log_index: 3, block_number: "65000123",
        block_time: "2026-03-04T05:06:07.890000Z", created_at: "2026-03-04T05:06:10.000000Z",
        revision: 1, confirmation_type: "solidified", confirmations: null, block_hash: "ab".repeat(32)
      })
      expect(data.items[0]).toEqual({
        id: reverted.id, event_id: reverted.eventId, event_type: "deposit.reverted", status: "reverted", ...common,
        amount: "115792089237316195423570985008687907853269984665640564039457584007913129639935", txid: reverted.txid, log_index: 0,
        block_number: "9223372036854775807", block_time: "2026-03-04T05:07:00.000000Z", created_at: "2026-03-04T05:07:09.001000Z",
        revision: 2, confirmation_type: "block_3", confirmations: 5, block_hash: null
      })
    }))

  it.effect("deposit ID descending; pages by size and offset; a page past the last is empty with the true total", () =>
    Effect.gen(function*() {
      const { client, ids } = yield* withDeposits(25)
      const desc = [...ids].reverse()
      const first = yield* list(client)
      expect([idsOf(first), first.total, first.page, first.page_size]).toEqual([desc.slice(0, 20), 25, 1, 20])
      const second = yield* list(client, { page: "2" })
      expect([idsOf(second), second.total, second.page]).toEqual([desc.slice(20), 25, 2])
      const middle = yield* list(client, { page: "3", page_size: "7" })
      expect([idsOf(middle), middle.total, middle.page, middle.page_size]).toEqual([desc.slice(14, 21), 25, 3, 7])
      expect(idsOf(yield* list(client, { page_size: "100" }))).toEqual(desc)
      expect(idsOf(yield* list(client, { page_size: "1" }))).toEqual([desc[0]])
      // The last entry is the deepest page allowed (100,000 rows in); deeper ones are refused (TenantBounds.test.ts).
      const beyonds: ReadonlyArray<[Record<string, string>, number, number]> = [
        [{ page: "3" }, 3, 20], [{ page: "26", page_size: "1" }, 26, 1], [{ page: "1001", page_size: "100" }, 1001, 100]
      ]
      for (const [beyond, page, pageSize] of beyonds) {
        expect(yield* list(client, beyond), JSON.stringify(beyond)).toEqual({ network: "nile", items: [], total: 25, page, page_size: pageSize })
      }
      const blank = yield* list(client, { page: "", page_size: "", address: "" })
      expect([idsOf(blank), blank.total, blank.page, blank.page_size]).toEqual([desc.slice(0, 20), 25, 1, 20])
    }))

  it.effect("only the calling tenant's deposits on the calling network", () =>
    Effect.gen(function*() {
      const { clients, tenant } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [Client, Client]
      const other = yield* tenantClients()
      const [onNile] = yield* nile.createWallets(1, "n")
      const [onMain] = yield* main.createWallets(1, "m")
      const [theirs] = yield* other.client.createWallets(1, "t")
      const mine = yield* seedDeposits(seedWalletOf(tenant, "nile", onNile!), 2)
      const mineOnMain = yield* seedDeposit(seedWalletOf(tenant, "main", onMain!))
      yield* seedDeposit(seedWalletOf(other.tenant, "nile", theirs!))
      const nileData = yield* list(nile)
      expect([nileData.network, idsOf(nileData), nileData.total]).toEqual(["nile", [mine[1]!.id, mine[0]!.id], 2])
      const mainData = yield* list(main)
      expect([mainData.network, idsOf(mainData), mainData.total]).toEqual(["main", [mineOnMain.id], 1])
    }))

  it.effect("address: case-insensitive contains on the receiving address only, with % and _ as wildcards", () =>
    Effect.gen(function*() {
      const { client, a, b, ids } = yield* withDeposits(6)
      // Deposits alternate a, b, a, b, ...: a holds the even positions.
      const ofA = ids.filter((_, i) => i % 2 === 0).reverse()
      const ofB = ids.filter((_, i) => i % 2 === 1).reverse()
      const all = [...ids].reverse()
      const middle = a.address.slice(5, 15)
      const cases: ReadonlyArray<[string, ReadonlyArray<string>]> = [
        [a.address, ofA],
        [b.address, ofB],
        [middle, ofA],
        [middle.toLowerCase(), ofA],
        [middle.toUpperCase(), ofA],
        [`${a.address.slice(0, 4)}%${a.address.slice(-4)}`, ofA],
        [`${a.address.slice(0, 10)}_${a.address.slice(11)}`, ofA],
        ["%", all],
        ["_".repeat(34), all],
        ["_".repeat(35), []],
        [`${a.address}x`, []],
        // Source and contract of every seeded deposit: never matched.
        [seedSource, []],
        [seedContract.slice(0, 20), []],
        ["\\", []]
      ]
      for (const [address, expected] of cases) {
        const data = yield* list(client, { address })
        expect([idsOf(data), data.total], address).toEqual([expected, expected.length])
      }
      const paged = yield* list(client, { address: a.address, page: "2", page_size: "2" })
      expect([idsOf(paged), paged.total]).toEqual([ofA.slice(2), 3])
      // At most 100 UTF-8 bytes: 50 two-byte characters pass, one more byte does not.
      expect((yield* list(client, { address: "é".repeat(50) })).total).toBe(0)
      expectInvalid(yield* client.get(depositsTarget({ address: `${"é".repeat(50)}a` })), "invalid request: address must be at most 100 UTF-8 bytes")
    }))

  it.effect("invalid paging is 400 `invalid request: invalid pagination`", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const bad: ReadonlyArray<Record<string, string>> = [
        { page: "0" }, { page: "-1" }, { page: "abc" }, { page: "1.5" }, { page: "+1" }, { page: " 1" }, { page: "01" },
        { page_size: "0" }, { page_size: "101" }, { page_size: "-5" }, { page_size: "1.5" }, { page_size: "ten" }
      ]
      for (const params of bad) {
        expectInvalid(yield* client.get(depositsTarget(params)), "invalid request: invalid pagination")
      }
    }))

  it.effect("unknown or repeated query keys are 400", () =>
    Effect.gen(function*() {
      const { client } = yield* withDeposits(1)
      const unknown = ["network=nile", "foo=1", "wallet_id=1", "sort=id", "source=T", "Page=1", "tenant_id=1"]
      for (const query of unknown) expectInvalid(yield* client.get(`/open/v1/deposits?${query}`))
      expectInvalid(yield* client.get("/open/v1/deposits?page=1&page=2"))
      expectInvalid(yield* client.get("/open/v1/deposits?address=T&address=T"))
    }))
})
