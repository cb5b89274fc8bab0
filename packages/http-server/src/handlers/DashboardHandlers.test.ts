import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { PgComponentStatus } from "@collector/postgres"
import { seedDeposit } from "@collector/postgres/testing"
import { Effect } from "effect"
import { seedWalletOf } from "../testing/Deposits.js"
import { expectOk } from "../testing/Assertions.js"
import { TestServerLive } from "../testing/TestServer.js"
import { type Client, expectInvalid, maxAmount, setWalletState, synced, tenantClients } from "../testing/Wallets.js"

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
      // No worker has reported on this fresh database.
      expect(data.engine.map((e: any) => [e.component, e.status])).toEqual([["api", "ok"], ["database", "ok"], ["worker", "stopped"]])
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
  it.effect("deposit_usdt is the scope's confirmed deposit total, exact beyond 2^64", () =>
    Effect.gen(function*() {
      const { clients, tenant } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [Client, Client]
      const other = yield* tenantClients()
      const [wallet] = yield* nile.createWallets(1, "w")
      const [mainWallet] = yield* main.createWallets(1, "m")
      const [theirs] = yield* other.client.createWallets(1, "t")
      const mine = seedWalletOf(tenant, "nile", wallet!)
      yield* seedDeposit(mine, { amount: "1500000" })
      yield* seedDeposit(mine, { amount: maxAmount })
      // A reverted record is not part of the total.
      yield* seedDeposit(mine, { status: "reverted", revision: 2, amount: "7" })
      yield* seedDeposit(seedWalletOf(tenant, "main", mainWallet!), { amount: "42" })
      yield* seedDeposit(seedWalletOf(other.tenant, "nile", theirs!), { amount: "99" })
      expect((yield* summary(nile)).deposit_usdt).toBe((2n ** 256n - 1n + 1_500_000n).toString())
      expect((yield* summary(main)).deposit_usdt).toBe("42")
      expect((yield* summary(other.client)).deposit_usdt).toBe("99")
      // The figure is the kept total (the confirming and reverting statements maintain it), not a sum over the records.
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE deposit_totals SET confirmed_usdt = 5 WHERE tenant_id = ${tenant.id} AND network = 'main'`
      expect((yield* summary(main)).deposit_usdt).toBe("5")
    }))

  it.effect("engine: api, database, then each worker component of the calling network; stale after 60 s; stopped when none", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const board = yield* PgComponentStatus.make
      const { clients } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [Client, Client]
      yield* sql`DELETE FROM worker_status`
      const engineOf = (client: Client) => Effect.map(summary(client), (data) => data.engine as ReadonlyArray<any>)
      const stopped = (yield* engineOf(nile)).slice(2)
      expect(stopped).toEqual([
        { component: "worker", status: "stopped", detail: "no worker has reported for this network", updated_at: expect.stringMatching(rfc3339) }
      ])
      const now = Date.now()
      const fiveMinutesAgo = new Date(now - 300_000)
      yield* board.report({ component: "scanner", network: "nile", status: "ok", detail: "at block 100", updatedAt: new Date(now) })
      yield* board.report({ component: "balance_sync", network: "nile", status: "degraded", detail: "node slow", updatedAt: fiveMinutesAgo })
      yield* board.report({ component: "notifier", network: "main", status: "ok", detail: "", updatedAt: new Date(now - 5_000) })
      const onNile = yield* engineOf(nile)
      expect(onNile.map((e) => e.component)).toEqual(["api", "database", "balance_sync", "scanner"])
      // A tenant reads each state with its fixed reason and since when, never the component's own words.
      expect(onNile.slice(2)).toEqual([
        { component: "balance_sync", status: "stale", detail: "not heard from within the last minute", updated_at: fiveMinutesAgo.toISOString() },
        { component: "scanner", status: "ok", detail: "running", updated_at: new Date(now).toISOString() }
      ])
      expect((yield* engineOf(main)).slice(2)).toEqual([
        { component: "notifier", status: "ok", detail: "running", updated_at: new Date(now - 5_000).toISOString() }
      ])
    }))

  it.effect("engine: what a worker reports for the operator (a node URL with a key in its path, another tenant's wallet, network-wide counts) never reaches a tenant", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const board = yield* PgComponentStatus.make
      const { clients } = yield* tenantClients(["nile"])
      yield* sql`DELETE FROM worker_status`
      const secrets = ["http://node.internal:8090/SECRET-KEY-123/wallet/getnowblock", "wallet 4242 of tenant 77", "1234567 wallets"]
      const now = new Date()
      yield* board.report({ component: "scanner", network: "nile", status: "degraded", detail: `node unavailable: timeout (POST ${secrets[0]})`, updatedAt: now })
      yield* board.report({ component: "balance_sync", network: "nile", status: "degraded", detail: `could not read ${secrets[1]}`, updatedAt: now })
      yield* board.report({ component: "sweeper", network: "nile", status: "stopped", detail: `backlog ${secrets[2]}`, updatedAt: now })
      yield* board.report({ component: "notifier", network: "nile", status: "rebooting", detail: "whatever", updatedAt: now })
      const answer = JSON.stringify(yield* summary(clients[0]!))
      for (const secret of ["SECRET-KEY-123", "node.internal", "4242", "1234567", "whatever"]) expect(answer).not.toContain(secret)
      const entries = (JSON.parse(answer).engine as ReadonlyArray<{ component: string; status: string; detail: string }>).slice(2)
      expect(entries.map((e) => [e.component, e.status, e.detail])).toEqual([
        ["balance_sync", "degraded", "running with a problem; the operator has the details"],
        ["notifier", "degraded", "running with a problem; the operator has the details"],
        ["scanner", "degraded", "running with a problem; the operator has the details"],
        ["sweeper", "stopped", "stopped; the operator has the details"]
      ])
    }))
})
