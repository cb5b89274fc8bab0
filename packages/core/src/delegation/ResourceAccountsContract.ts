import { expect, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { resourceAccountFor } from "./ResourceAccountFor.js"
import { ResourceAccountExists, ResourceAccounts, type StoredResourceAccount } from "./ResourceAccounts.js"
import type { TenantId } from "../kernel/Ids.js"
import { TenantRepository } from "../tenants/TenantRepository.js"
import { localKey, tokenKey } from "../wallets/WalletKey.js"

const sealed = localKey({ keyId: "k1", blob: new Uint8Array([1, 2, 3, 250]) })

/** An account of `tenantId` on nile; addresses are the simulator's test wallets. */
const account = (tenantId: TenantId | null, overrides: Partial<StoredResourceAccount> = {}): StoredResourceAccount => ({
  network: "nile",
  tenantId,
  address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  key: sealed,
  createdAt: new Date("2026-03-01T00:00:00.001Z"),
  ...overrides
})

/**
 * What every ResourceAccounts store must do. The storage is shared by the tests of one run: only
 * the first test sets networks' defaults, the others use tenants they create.
 */
export const resourceAccountsContract = <E>(name: string, storage: Layer.Layer<ResourceAccounts | TenantRepository, E>) =>
  layer(storage)(`ResourceAccounts contract (${name})`, (it) => {
    const newTenant = (label: string) => Effect.map(Effect.flatMap(TenantRepository, (repo) => repo.create(`resource-${label}`, [])), (t) => t.id)

    it.effect("stores one account per network and tenant, reads it back exactly, and refuses a second", () =>
      Effect.gen(function*() {
        const accounts = yield* ResourceAccounts
        const tenant = yield* newTenant("one")
        const nileDefault = account(null)
        const mainDefault = account(null, { network: "main", address: "TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj", key: tokenKey("collector-resource-main") })
        const own = account(tenant, { address: "TVjsyZ7fYF3qLF6BQgPmTEZy1xrNNyVAAA", key: tokenKey(`collector-resource-${tenant}`) })
        expect(yield* accounts.create(nileDefault)).toEqual(nileDefault)
        expect(yield* accounts.create(mainDefault)).toEqual(mainDefault)
        expect(yield* accounts.create(own)).toEqual(own)
        expect(yield* accounts.find("nile", null)).toEqual(Option.some(nileDefault))
        expect(yield* accounts.find("main", null)).toEqual(Option.some(mainDefault))
        expect(yield* accounts.find("nile", tenant)).toEqual(Option.some(own))
        expect(yield* accounts.find("main", tenant)).toEqual(Option.none())

        const again = yield* Effect.exit(accounts.create(account(null, { address: "TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj" })))
        expect(again).toEqual(Exit.fail(new ResourceAccountExists({ existing: nileDefault })))
        const ownAgain = yield* Effect.exit(accounts.create(account(tenant)))
        expect(ownAgain).toEqual(Exit.fail(new ResourceAccountExists({ existing: own })))
        expect(yield* accounts.find("nile", null)).toEqual(Option.some(nileDefault))

        const listed = (yield* accounts.list()).filter((a) => a.tenantId === null || a.tenantId === tenant)
        expect(listed).toEqual([mainDefault, nileDefault, own])
      }))

    it.effect("lists the accounts of one network by tenant ID as a number (tenant 9 before tenant 10)", () =>
      Effect.gen(function*() {
        const accounts = yield* ResourceAccounts
        const first = yield* newTenant("order-0")
        let last = first
        for (let i = 1; last.length === first.length && i < 1000; i++) last = yield* newTenant(`order-${i}`)
        const [shorter, longer] = [account(first), account(last)]
        yield* accounts.create(longer)
        yield* accounts.create(shorter)
        expect((yield* accounts.list()).filter((a) => a.tenantId === first || a.tenantId === last)).toEqual([shorter, longer])
      }))

    it.effect("a tenant's own account wins, else the network's default, else none", () =>
      Effect.gen(function*() {
        const accounts = yield* ResourceAccounts
        const withOwn = yield* newTenant("own")
        const without = yield* newTenant("none")
        const own = account(withOwn, { address: "TVjsyZ7fYF3qLF6BQgPmTEZy1xrNNyVAAA", key: tokenKey(`collector-resource-${withOwn}`) })
        yield* accounts.create(own)
        const nileDefault = yield* accounts.find("nile", null)
        // Hand table: (network, tenant) -> the address expected, or none.
        const table: ReadonlyArray<[("nile" | "main"), TenantId | null, string | undefined]> = [
          ["nile", withOwn, "TVjsyZ7fYF3qLF6BQgPmTEZy1xrNNyVAAA"],
          ["nile", without, Option.getOrUndefined(nileDefault)?.address],
          ["nile", null, Option.getOrUndefined(nileDefault)?.address]
        ]
        for (const [network, tenant, address] of table) {
          expect(Option.getOrUndefined(yield* resourceAccountFor(network, tenant))?.address).toBe(address)
        }
      }))
  })
