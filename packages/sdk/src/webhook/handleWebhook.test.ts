import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Ref } from "effect"
import { DepositRevisionStore } from "./DepositRevisionStore.js"
import { handleWebhook } from "./handleWebhook.js"
import { sampleDeposit, sealEvent, testAppId, testKey, type TestDelivery } from "./TestDeliveries.js"
import { WebhookEventStore } from "./WebhookEventStore.js"
import { webhookAcknowledgement } from "./WebhookResponse.js"

const stores = Layer.merge(WebhookEventStore.layerMemory, DepositRevisionStore.layerMemory)
const request = (delivery: TestDelivery) => ({ ...delivery, webhookKey: testKey, appId: testAppId })

describe("handleWebhook", () => {
  it("uses exactly the contract's acknowledgement", () => {
    expect(webhookAcknowledgement).toEqual({ status: 200, headers: { "content-type": "application/json" }, body: "{\"code\":0}" })
  })

  it.effect("applies, then acknowledges a duplicate and an older revision without calling the handler", () =>
    Effect.gen(function*() {
      const booked = yield* Ref.make<Array<string>>([])
      const handlers = {
        onDeposit: (e: { event_id: string }) => Ref.update(booked, (list) => [...list, e.event_id]),
        onSweep: () => Effect.die("no sweeps here")
      }
      const second = sampleDeposit({ event_id: "9002", revision: 2, event_type: "deposit.reverted", status: "reverted" })
      const first = sampleDeposit({ event_id: "9001", revision: 1 })
      const outcomes = []
      for (const delivery of [sealEvent(second), sealEvent(second), sealEvent(first)]) {
        const handled = yield* handleWebhook(request(delivery), handlers)
        expect(handled.response).toEqual(webhookAcknowledgement)
        outcomes.push(handled.outcome)
      }
      expect(outcomes).toEqual(["applied", "duplicate", "older-revision"])
      expect(yield* Ref.get(booked)).toEqual(["9002"])
    }).pipe(Effect.provide(stores)))

  it.effect("answers 500 when booking fails and books the retry", () =>
    Effect.gen(function*() {
      const delivery = sealEvent(sampleDeposit())
      const failing = yield* handleWebhook(request(delivery), { onDeposit: () => Effect.fail("ledger down"), onSweep: () => Effect.void })
      expect(failing.outcome).toBe("failed")
      expect(failing.response.status).toBe(500)
      const retried = yield* handleWebhook(request(delivery), { onDeposit: () => Effect.void, onSweep: () => Effect.void })
      expect(retried.outcome).toBe("applied")
    }).pipe(Effect.provide(stores)))

  it.effect("answers 409 to a second delivery while the first is still booking", () =>
    Effect.gen(function*() {
      const entered = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      const handlers = { onDeposit: () => Deferred.succeed(entered, undefined).pipe(Effect.zipRight(Deferred.await(gate))), onSweep: () => Effect.void }
      const delivery = sealEvent(sampleDeposit())
      const first = yield* Effect.fork(handleWebhook(request(delivery), handlers))
      yield* Deferred.await(entered)
      const second = yield* handleWebhook(request(delivery), handlers)
      expect(second.outcome).toBe("in-progress")
      expect(second.response.status).toBe(409)
      yield* Deferred.succeed(gate, undefined)
      expect((yield* Fiber.join(first)).outcome).toBe("applied")
    }).pipe(Effect.provide(stores)))

  it.effect("answers 400 to a rejected delivery", () =>
    Effect.gen(function*() {
      const delivery = sealEvent(sampleDeposit(), { appId: "1000009" })
      const handled = yield* handleWebhook(request(delivery), { onDeposit: () => Effect.die("not booked"), onSweep: () => Effect.void })
      expect(handled.outcome).toBe("rejected")
      expect(handled.response).toEqual({ status: 400, headers: { "content-type": "application/json" }, body: "{\"code\":400,\"message\":\"webhook rejected: app-id-mismatch\"}" })
    }).pipe(Effect.provide(stores)))
})
