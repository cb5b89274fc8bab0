import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { TestServerLive } from "../testing/TestServer.js"
import { expectInvalid, listTarget, tenantClients } from "../testing/Wallets.js"

/** `n` more wallets of the scope of wallet `like`, written straight into the store (no keys: never swept). */
const seedWallets = (like: string, n: number, tag: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO wallets (tenant_id, network, address, custom_id)
        SELECT w.tenant_id, w.network, 'Tseed' || ${tag} || i, 'seed-' || ${tag} || i
        FROM wallets w, generate_series(1, ${n}) AS i WHERE w.id = ${like}`).pipe(Effect.orDie)

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }, { tenantLimits: { maxWalletsPerTenant: 3 } }), { excludeTestServices: true })(
  "bounds on a tenant's work",
  (it) => {
    it.effect("a selection returns at most 1000 IDs: exactly 1000 is answered, one more is a 400 asking for narrower filters", () =>
      Effect.gen(function*() {
        const { client } = yield* tenantClients()
        const [first] = yield* client.createWallets(1)
        yield* seedWallets(first!.id, 999, "a")
        const all = expectOk(yield* client.post("/open/v1/wallets/selection", {}))
        expect([all.total, all.wallet_ids.length, all.wallet_ids[0]]).toEqual([1000, 1000, first!.id])
        yield* seedWallets(first!.id, 1, "b")
        expectInvalid(
          yield* client.post("/open/v1/wallets/selection", {}),
          "invalid request: more than 1000 wallets match the filters; narrow them"
        )
        // Narrower filters are answered again.
        const narrow = expectOk(yield* client.post("/open/v1/wallets/selection", { filters: { address: "Tseedb" } }))
        expect(narrow.total).toBe(1)
      }))

    it.effect("a list page may start at most 100,000 rows deep, on every list", () =>
      Effect.gen(function*() {
        const { client } = yield* tenantClients()
        const deepest = expectOk(yield* client.get(listTarget({ page: "1001", page_size: "100" })))
        expect([deepest.items, deepest.total]).toEqual([[], 0])
        expectOk(yield* client.get(listTarget({ page: "5001", page_size: "20" })))
        const tooDeep = "invalid request: invalid pagination: a page may start at most 100000 rows deep ((page - 1) * page_size); narrow the filters"
        for (const target of ["/open/v1/wallets", "/open/v1/deposits", "/open/v1/sweeps", "/open/v1/webhooks"]) {
          expectInvalid(yield* client.get(`${target}?page=1002&page_size=100`), tooDeep)
          expectInvalid(yield* client.get(`${target}?page=999999999`), tooDeep)
        }
      }))

    it.effect("a tenant holds at most TENANT_MAX_WALLETS wallets over its networks: one more is 409 and not saved with its request_id", () =>
      Effect.gen(function*() {
        const { clients: [nile, main] } = yield* tenantClients(["nile", "main"])
        yield* nile!.createWallets(2)
        yield* main!.createWallets(1)
        const requestId = randomUUID()
        const refused = yield* nile!.post("/open/v1/wallets", { custom_id: "fourth", request_id: requestId })
        expectError(refused, 409, "BUSINESS_CONFLICT")
        expect(refused.json.message).toBe("conflict: the tenant holds the maximum of 3 wallets")
        expectError(yield* main!.post("/open/v1/wallets", { custom_id: "fourth", request_id: randomUUID() }), 409, "BUSINESS_CONFLICT")
        expect((yield* nile!.list()).total).toBe(2)
        // Another tenant is not counted against this one.
        const other = yield* tenantClients()
        expectOk(yield* other.client.post("/open/v1/wallets", { custom_id: "w", request_id: randomUUID() }))
        // The refusal was not saved: once there is room, the same request_id creates the wallet.
        const sql = yield* SqlClient.SqlClient
        const [gone] = yield* sql<{ id: string }>`SELECT id::text AS id FROM wallets w
          WHERE network = 'main' AND tenant_id = (SELECT tenant_id FROM wallets WHERE id = ${(yield* nile!.list()).items[0].id})`.pipe(Effect.orDie)
        yield* sql`DELETE FROM wallet_keys WHERE wallet_id = ${gone!.id}`.pipe(Effect.orDie)
        yield* sql`DELETE FROM wallets WHERE id = ${gone!.id}`.pipe(Effect.orDie)
        yield* sql`UPDATE wallet_counts SET n = 0 WHERE network = 'main'`.pipe(Effect.orDie)
        const created = expectOk(yield* nile!.post("/open/v1/wallets", { custom_id: "fourth", request_id: requestId }))
        expect(created.custom_id).toBe("fourth")
      }))
  }
)
