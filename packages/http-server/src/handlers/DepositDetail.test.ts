import { expect, layer } from "@effect/vitest"
import { Deposits, type Kernel } from "@collector/core"
import { PgDepositRepository } from "@collector/postgres"
import { seedDeposit } from "@collector/postgres/testing"
import { Effect, Option } from "effect"
import { expectError, expectOk } from "../testing/Assertions.js"
import { depositKeys, depositsTarget, seedWalletOf } from "../testing/Deposits.js"
import { TestServerLive } from "../testing/TestServer.js"
import { type Client, tenantClients } from "../testing/Wallets.js"

const detail = (id: string) => `/open/v1/deposits/${id}`

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("deposit detail", (it) => {
  it.effect("the 24-member record, byte for byte the list item and the notification payload of the same revision", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const [wallet] = yield* client.createWallets(1, "shop")
      const seeded = yield* seedDeposit(seedWalletOf(tenant, "nile", wallet!), {
        amount: "5000000", logIndex: 7, blockNumber: "123", blockTime: "2026-05-06T07:08:09.5Z", createdAt: "2026-05-06T07:08:12.25Z",
        confirmationType: "block_12", confirmations: 12
      })
      const res = yield* client.get(detail(seeded.id))
      const data = expectOk(res)
      expect(Object.keys(data)).toEqual(depositKeys)
      expect(data).toMatchObject({
        id: seeded.id, event_id: seeded.eventId, network: "nile", wallet_id: wallet!.id, custom_id: "shop-1", address: wallet!.address,
        amount: "5000000", log_index: 7, block_number: "123", block_time: "2026-05-06T07:08:09.500000Z",
        created_at: "2026-05-06T07:08:12.250000Z", confirmation_type: "block_12", confirmations: 12, revision: 1
      })
      // The notification payload is core's depositRecord of the stored deposit: the same bytes.
      const repo = yield* PgDepositRepository.make
      const stored = yield* repo.find({ tenantId: tenant.id as Kernel.TenantId, network: "nile" }, seeded.id as Deposits.DepositId)
      const payload = JSON.stringify(Deposits.depositRecord(Option.getOrThrow(stored)))
      expect(res.text).toBe(`{"code":0,"message":"","data":${payload}}`)
      const listed = yield* client.get(depositsTarget())
      expect(listed.text).toBe(`{"code":0,"message":"","data":{"network":"nile","items":[${payload}],"total":1,"page":1,"page_size":20}}`)
    }))

  it.effect("404 RESOURCE_NOT_FOUND for another tenant's, the other network's, or no deposit", () =>
    Effect.gen(function*() {
      const { clients, tenant } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [Client, Client]
      const other = (yield* tenantClients()).client
      const [wallet] = yield* nile.createWallets(1, "w")
      const seeded = yield* seedDeposit(seedWalletOf(tenant, "nile", wallet!))
      expect(expectOk(yield* nile.get(detail(seeded.id))).id).toBe(seeded.id)
      expectError(yield* other.get(detail(seeded.id)), 404, "RESOURCE_NOT_FOUND")
      expectError(yield* main.get(detail(seeded.id)), 404, "RESOURCE_NOT_FOUND")
      expectError(yield* nile.get(detail("9223372036854775807")), 404, "RESOURCE_NOT_FOUND")
      // An ID no deposit has yet.
      expectError(yield* nile.get(detail(String(BigInt(seeded.id) + 1000n))), 404, "RESOURCE_NOT_FOUND")
    }))

  it.effect("400 for an ID that is not a canonical positive int64, and for any query", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const [wallet] = yield* client.createWallets(1, "w")
      const seeded = yield* seedDeposit(seedWalletOf(tenant, "nile", wallet!))
      for (const bad of ["0", "01", "-1", "+1", "abc", "1.0", "1e3", "9223372036854775808", "99999999999999999999"]) {
        expectError(yield* client.get(detail(bad)), 400, "INVALID_ARGUMENT")
      }
      expectError(yield* client.get(detail(`0${seeded.id}`)), 400, "INVALID_ARGUMENT")
      for (const query of ["?network=nile", "?", "?page=1", `?id=${seeded.id}`]) {
        expectError(yield* client.get(`${detail(seeded.id)}${query}`), 400, "INVALID_ARGUMENT")
      }
    }))
})
