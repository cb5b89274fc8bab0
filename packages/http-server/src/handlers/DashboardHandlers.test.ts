import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectOk } from "../testing/Assertions"
import { TestServerLive } from "../testing/TestServer"
import { type Client, expectInvalid, maxAmount, setWalletState, synced, tenantClients } from "../testing/Wallets"

const dashboard = "/open/v1/dashboard"
const fields = [
  "balance_trx", "balance_usdt", "collected_usdt", "deposit_usdt", "engine", "network", "pending_tasks", "unsynced_wallet_count", "wallet_count"
]
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

const summary = (client: Client) => Effect.map(client.get(dashboard), expectOk)

/** The summary without `engine`, which is checked on its own. */
const figures = (client: Client) => Effect.map(summary(client), ({ engine: _, ...rest }) => rest)

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("dashboard", (it) => {
  it.effect("exactly the nine fields; zeros for a new tenant; engine reports api and database", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const before = Date.now()
      const data = yield* summary(client)
      expect(Object.keys(data).sort()).toEqual(fields)
      expect({ ...data, engine: undefined }).toEqual({
        wallet_count: 0,
        unsynced_wallet_count: 0,
        balance_usdt: "0",
        balance_trx: "0",
        collected_usdt: "0",
        deposit_usdt: "0",
        pending_tasks: 0,
        engine: undefined,
        network: "nile"
      })
      expect(data.engine.map((e: any) => [e.component, e.status])).toEqual([["api", "ok"], ["database", "ok"]])
      for (const entry of data.engine) {
        expect(Object.keys(entry).sort()).toEqual(["component", "detail", "status", "updated_at"])
        expect(typeof entry.detail).toBe("string")
        expect(entry.updated_at).toMatch(rfc3339)
        const at = Date.parse(entry.updated_at)
        expect(at).toBeGreaterThanOrEqual(before - 1000)
        expect(at).toBeLessThanOrEqual(Date.now() + 1000)
      }
    }))

  it.effect("counts wallets and unsynced ones; sums synced balances and collected amounts exactly", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const ws = yield* client.createWallets(5)
      expect(yield* figures(client)).toEqual({
        wallet_count: 5, unsynced_wallet_count: 5, balance_usdt: "0", balance_trx: "0", collected_usdt: "0", deposit_usdt: "0",
        pending_tasks: 0, network: "nile"
      })
      yield* setWalletState(ws[0]!.id, { ...synced(maxAmount, "1"), collected: "1000000" })
      yield* setWalletState(ws[1]!.id, { ...synced(maxAmount, "0"), collected: maxAmount, lastCollectedAt: "2026-01-01T00:00:00Z" })
      yield* setWalletState(ws[2]!.id, synced("0", "999999999999999999999"))
      // Still unsynced, though already credited with a collection.
      yield* setWalletState(ws[3]!.id, { collected: "5" })
      const big = 2n ** 256n - 1n
      expect(yield* figures(client)).toEqual({
        wallet_count: 5,
        unsynced_wallet_count: 2,
        balance_usdt: (big * 2n).toString(),
        balance_trx: "1000000000000000000000",
        collected_usdt: (big + 1_000_005n).toString(),
        deposit_usdt: "0",
        pending_tasks: 0,
        network: "nile"
      })
    }))

  it.effect("scoped to the calling tenant and network", () =>
    Effect.gen(function*() {
      const { clients } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [Client, Client]
      const other = (yield* tenantClients()).client
      const [mine] = yield* nile.createWallets(1, "mine")
      const onMain = yield* main.createWallets(2, "main")
      const [theirs] = yield* other.createWallets(1, "theirs")
      yield* setWalletState(mine!.id, { ...synced("10", "20"), collected: "30" })
      yield* setWalletState(onMain[0]!.id, { ...synced("100", "200"), collected: "300" })
      yield* setWalletState(theirs!.id, { ...synced("1000", "2000"), collected: "3000" })
      const expected = (network: string, n: number, unsynced: number, usdt: string, trx: string, collected: string) => ({
        wallet_count: n, unsynced_wallet_count: unsynced, balance_usdt: usdt, balance_trx: trx, collected_usdt: collected,
        deposit_usdt: "0", pending_tasks: 0, network
      })
      expect(yield* figures(nile)).toEqual(expected("nile", 1, 0, "10", "20", "30"))
      expect(yield* figures(main)).toEqual(expected("main", 2, 1, "100", "200", "300"))
      expect(yield* figures(other)).toEqual(expected("nile", 1, 0, "1000", "2000", "3000"))
    }))

  it.effect("takes no query parameters", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      expectInvalid(yield* client.get(`${dashboard}?network=main`))
      expectInvalid(yield* client.get(`${dashboard}?`))
    }))
})
