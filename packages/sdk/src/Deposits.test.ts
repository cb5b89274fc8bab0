import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Tenants } from "@collector/core"
import { ServerUrl, TestServerLive } from "@collector/http-server/testing"
import { seedDeposit } from "@collector/postgres/testing"
import { Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { makeCollectorClient } from "./CollectorEffectClient.js"
import { NotFound } from "./index.js"

layer(TestServerLive(), { excludeTestServices: true })("CollectorClient deposits", (it) => {
  it.effect("lists and reads deposits through the typed client, the same record both ways", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const { credentials, tenant } = yield* admin.create(`sdk-deposits-${randomUUID().slice(0, 8)}`, ["nile", "main"])
      const url = yield* ServerUrl
      const clientFor = (network: "nile" | "main") => {
        const c = credentials.find((x) => x.network === network)!
        return makeCollectorClient({ baseUrl: url, appId: c.appId, appSecret: c.appSecret, timeout: "10 seconds" }).pipe(
          Effect.provide(FetchHttpClient.layer)
        )
      }
      const nile = yield* clientFor("nile")
      const main = yield* clientFor("main")
      const wallet = yield* nile.wallets.createWallet({ payload: { custom_id: "payer", request_id: randomUUID() } })
      const seeded = yield* seedDeposit(
        { tenantId: tenant.id, network: "nile", id: wallet.id, address: wallet.address, customId: wallet.custom_id },
        { amount: "2500000", confirmationType: "block_6", confirmations: 8, blockTime: "2026-01-02T03:04:05.006Z" }
      )
      // The address filter travels in the signed query.
      const page = yield* nile.deposits.listDeposits({ urlParams: { address: wallet.address.slice(3, 12).toLowerCase(), page_size: "5" } })
      expect({ ...page, items: page.items.map((d) => d.id) }).toEqual({ network: "nile", items: [seeded.id], total: 1, page: 1, page_size: 5 })
      const read = yield* nile.deposits.getDeposit({ path: { id: seeded.id } })
      expect(read).toEqual(page.items[0])
      expect(read).toMatchObject({ amount: "2500000", confirmations: 8, block_time: "2026-01-02T03:04:05.006000Z", decimals: 6 })
      const missing = yield* Effect.either(main.deposits.getDeposit({ path: { id: seeded.id } }))
      expect(Either.isLeft(missing) && missing.left instanceof NotFound && missing.left.error_code).toBe("RESOURCE_NOT_FOUND")
    }))
})
