import { expect, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { AutomationPolicy, StoredSettings } from "./Settings.js"
import { SettingsRepository } from "./SettingsRepository.js"
import { dies } from "../testing/Defects.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

const maxAmount = 2n ** 256n - 1n

const neverWritten: StoredSettings = {
  collection: { address: "", walletId: null, updatedAt: null },
  automation: null,
  webhook: { url: "", enabled: false, updatedAt: null }
}

const policy: Omit<AutomationPolicy, "updatedAt"> = {
  enabled: true,
  threshold: 5_000_000n,
  intervalMinutes: 15,
  maxWalletTrxFee: 9_000_000n,
  maxRentalCost: 12_000_000n,
  rentalAllowed: true
}

const expectWritten = (value: { readonly updatedAt: Date | null }) => expect(value.updatedAt).toBeInstanceOf(Date)

/**
 * What every SettingsRepository must do: one row per scope, created by the first write; each
 * upsert answers what it stored and leaves the other settings as they were. The policy reads as
 * none until set (the core applies its default), even when another setting created the row.
 */
export const settingsRepositoryContract = <E>(name: string, storage: Layer.Layer<SettingsRepository | StorageFixtures, E>) =>
  layer(storage)(`SettingsRepository contract (${name})`, (it) => {
    it.effect("a scope never written reads unbound, without webhook and with no policy", () =>
      Effect.gen(function*() {
        const repo = yield* SettingsRepository
        const scope = yield* (yield* StorageFixtures).scope("nile")
        expect(yield* repo.get(scope)).toEqual(neverWritten)
      }))

    it.effect("each upsert answers what it stored, get reads it back, and the other settings stay as they were", () =>
      Effect.gen(function*() {
        const repo = yield* SettingsRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const wallet = yield* fixtures.wallet(scope)

        const webhook = yield* repo.setWebhook(scope, { url: "https://hooks.example.com/in", enabled: true })
        expect({ ...webhook, updatedAt: null }).toEqual({ url: "https://hooks.example.com/in", enabled: true, updatedAt: null })
        expectWritten(webhook)
        // The row exists now, but the policy was never set.
        expect(yield* repo.get(scope)).toEqual({ ...neverWritten, webhook })

        const collection = yield* repo.setCollection(scope, wallet.address, wallet.id)
        expect({ ...collection, updatedAt: null }).toEqual({ address: wallet.address, walletId: wallet.id, updatedAt: null })
        expectWritten(collection)
        expect(yield* repo.get(scope)).toEqual({ ...neverWritten, webhook, collection })

        const automation = yield* repo.setAutomation(scope, policy)
        expect({ ...automation, updatedAt: null }).toEqual({ ...policy, updatedAt: null })
        expectWritten(automation)
        expect(yield* repo.get(scope)).toEqual({ webhook, collection, automation })

        const external = yield* repo.setCollection(scope, "TExternalCollection", null)
        expect({ ...external, updatedAt: null }).toEqual({ address: "TExternalCollection", walletId: null, updatedAt: null })
        const off = yield* repo.setWebhook(scope, { url: "", enabled: false })
        const disabled = yield* repo.setAutomation(scope, { ...policy, enabled: false, rentalAllowed: false })
        expect(yield* repo.get(scope)).toEqual({ webhook: off, collection: external, automation: disabled })
      }))

    it.effect("scopes are apart: the other network and other tenants read their own settings", () =>
      Effect.gen(function*() {
        const repo = yield* SettingsRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const otherNetwork: TenantScope = { tenantId: scope.tenantId, network: "main" }
        const otherTenant = yield* fixtures.scope("nile")
        yield* repo.setAutomation(scope, policy)
        yield* repo.setCollection(scope, "TCollectionOfNile", null)
        const mainHook = yield* repo.setWebhook(otherNetwork, { url: "https://main.example.com/", enabled: true })
        expect(yield* repo.get(otherNetwork)).toEqual({ ...neverWritten, webhook: mainHook })
        expect(yield* repo.get(otherTenant)).toEqual(neverWritten)
        expect((yield* repo.get(scope)).webhook).toEqual(neverWritten.webhook)
      }))

    it.effect("amounts up to 2^256-1 are stored exactly", () =>
      Effect.gen(function*() {
        const repo = yield* SettingsRepository
        const scope = yield* (yield* StorageFixtures).scope("main")
        const widest = { ...policy, threshold: maxAmount, maxWalletTrxFee: maxAmount - 1n, maxRentalCost: maxAmount - 2n, intervalMinutes: 10_080 }
        const stored = yield* repo.setAutomation(scope, widest)
        expect({ ...stored, updatedAt: null }).toEqual({ ...widest, updatedAt: null })
        expect((yield* repo.get(scope)).automation).toEqual(stored)
      }))

    it.effect("a collection wallet that does not exist is a defect and stores nothing", () =>
      Effect.gen(function*() {
        const repo = yield* SettingsRepository
        const scope = yield* (yield* StorageFixtures).scope("nile")
        expect(yield* dies(repo.setCollection(scope, "TNoSuchWallet", "9223372036854775807" as WalletId))).toBe(true)
        expect(yield* repo.get(scope)).toEqual(neverWritten)
      }))
  })
