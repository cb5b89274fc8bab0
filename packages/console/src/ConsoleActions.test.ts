import { Kernel, Memory, Notifications, Operators, Settings } from "@collector/core"
import { MemoryStorageFixtures, StorageFixtures, TestWebhookTargets } from "@collector/core/testing"
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { runAction } from "./ConsoleActions.js"
import { OperatorAccess } from "./OperatorAccess.js"

/** The settings store of memory, whose writes of a policy fail as a database gone mid-action would. */
const FailingPolicyWrites = Layer.effect(
  Settings.SettingsRepository,
  Effect.map(Settings.SettingsRepository, (store) => ({ ...store, setAutomation: () => Effect.dieMessage("connection lost") }))
).pipe(Layer.provide(Memory.MemoryStorage))

const Storage = MemoryStorageFixtures.layer.pipe(Layer.provideMerge(Memory.MemoryStorage))
const Services = Layer.mergeAll(OperatorAccess.layer, Notifications.Notifications.layer, Settings.SettingsService.layer.pipe(Layer.provide(FailingPolicyWrites))).pipe(
  Layer.provideMerge(Layer.mergeAll(Storage, Kernel.SeededEntropy.layer("console-actions"), TestWebhookTargets.layer({})))
)

layer(Services)("a console action and its audit entry", (it) => {
  it.effect("the entry is written before the action: an action that fails half-way leaves it started, never missing", () =>
    Effect.gen(function*() {
      const { credential } = yield* (yield* OperatorAccess).createToken()
      const scope = yield* (yield* StorageFixtures).scope("nile")
      const exit = yield* Effect.exit(runAction({ credential, tokenId: credential.id }, { action: "resume_automation", scope }))
      expect(Exit.isFailure(exit)).toBe(true)
      const [entry] = yield* (yield* Operators.OperatorAuditLog).recent(1)
      expect(entry).toMatchObject({ tokenId: credential.id, action: "resume_automation", target: `tenant ${scope.tenantId} nile`, outcome: "started" })
    }))
})
