import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { MemoryStorage } from "../memory/MemoryStorage.js"
import { defaultAutomationPolicy } from "./Settings.js"
import { SettingsService } from "./SettingsService.js"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"
import { WebhookTargets } from "../webhook/WebhookTargets.js"

const noWebhookTargets = Layer.succeed(WebhookTargets, { resolvePublic: () => Effect.dieMessage("not used") })

const TestLive = SettingsService.layer.pipe(
  Layer.provideMerge(MemoryStorageFixtures.layer),
  Layer.provideMerge(MemoryStorage),
  Layer.provide(noWebhookTargets)
)

layer(TestLive)("SettingsService", (it) => {
  it.effect("a policy never set reads the running version's default, also when another setting created the row", () =>
    Effect.gen(function*() {
      const service = yield* SettingsService
      const scope = yield* (yield* StorageFixtures).scope("nile")
      expect((yield* service.get(scope)).automation).toEqual(defaultAutomationPolicy)
      yield* service.setWebhook(scope, "", false)
      expect((yield* service.get(scope)).automation).toEqual(defaultAutomationPolicy)
      const policy = { ...defaultAutomationPolicy, enabled: true, threshold: 1n }
      const stored = yield* service.setAutomation(scope, policy)
      expect({ ...stored, updatedAt: null }).toEqual({ ...policy, updatedAt: null })
      expect((yield* service.get(scope)).automation).toEqual(stored)
    }))

  it.effect("a collection address that is one of the scope's wallets is stored with the wallet's ID", () =>
    Effect.gen(function*() {
      const service = yield* SettingsService
      const fixtures = yield* StorageFixtures
      const scope = yield* fixtures.scope("nile")
      const wallet = yield* fixtures.wallet(scope)
      const theirs = yield* fixtures.wallet(yield* fixtures.scope("nile"))
      expect((yield* service.setCollectionAddress(scope, wallet.address)).walletId).toBe(wallet.id)
      expect((yield* service.setCollectionAddress(scope, theirs.address)).walletId).toBeNull()
      expect((yield* service.get(scope)).collection.address).toBe(theirs.address)
    }))
})
