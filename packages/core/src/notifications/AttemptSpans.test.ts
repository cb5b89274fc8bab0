import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, TestClock } from "effect"
import { MemoryStorage } from "../memory/MemoryStorage.js"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { outboxEvent, webhookScope } from "../testing/OutboxEvents.js"
import { makeRecordingTracer } from "../testing/RecordingTracer.js"
import { serverErrorReply, TestDeliveryTransport } from "../testing/TestDeliveryTransport.js"
import * as TestEnvelopeSealer from "../testing/TestEnvelopeSealer.js"
import * as TestSecretBox from "../testing/TestSecretBox.js"
import { TestWebhookTargets } from "../testing/TestWebhookTargets.js"
import { Dispatcher } from "./Dispatcher.js"
import { OutboxSignal } from "./OutboxSignal.js"
import { Notifications } from "./Notifications.js"

const start = new Date("2026-03-01T00:00:00.000Z")

const world = Layer.mergeAll(
  TestDeliveryTransport.layer(),
  TestWebhookTargets.layer({ "receiver.test": ["203.0.113.7"] }),
  TestEnvelopeSealer.layer,
  TestSecretBox.layer({}),
  Notifications.layer
).pipe(Layer.provideMerge(MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage))))

const dispatchOnce = Effect.flatMap(Dispatcher, (d) => d.dispatchOnce("nile", "test-dispatcher")).pipe(Effect.provide(Dispatcher.layer().pipe(Layer.provide(OutboxSignal.layer))))

describe("webhook delivery spans", () => {
  it.effect("while tracing is on: one span per attempt with the event, the host and the answer; a failed attempt is an error", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      const transport = yield* TestDeliveryTransport
      const recording = makeRecordingTracer()
      const ok = yield* webhookScope("nile", { url: "https://receiver.test/ok?token=tenant-secret", enabled: true })
      const okEvent = yield* outboxEvent(ok, start)
      const failing = yield* webhookScope("nile", { url: "https://receiver.test/error", enabled: true })
      const failingEvent = yield* outboxEvent(failing, start)
      transport.answer(serverErrorReply, "https://receiver.test/error")
      expect(yield* dispatchOnce.pipe(Effect.withTracer(recording.tracer))).toBe(2)
      const spans = recording.ended.filter((span) => span.name === "webhook.delivery")
      expect(spans).toHaveLength(2)
      const byEvent = (id: string) => spans.find((span) => span.attributes.get("webhook.event_id") === id)!
      expect(Object.fromEntries(byEvent(okEvent.id).attributes)).toMatchObject({
        "server.address": "receiver.test", "webhook.attempt": 1, "webhook.delivered": true, "http.response.status_code": 200, "collector.network": "nile"
      })
      expect(Exit.isSuccess(byEvent(okEvent.id).exit)).toBe(true)
      expect(Object.fromEntries(byEvent(failingEvent.id).attributes)).toMatchObject({ "webhook.delivered": false, "http.response.status_code": 500 })
      expect(Exit.isFailure(byEvent(failingEvent.id).exit)).toBe(true)
      // Never the URL's path or query, where a tenant may keep a token.
      expect(JSON.stringify(spans.map((span) => [...span.attributes]))).not.toContain("tenant-secret")
    }).pipe(Effect.provide(world)))

  it.effect("while tracing is off: no span", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      const recording = makeRecordingTracer()
      const scope = yield* webhookScope("nile", { url: "https://receiver.test/ok", enabled: true })
      yield* outboxEvent(scope, start)
      expect(yield* dispatchOnce.pipe(Effect.withTracer(recording.tracer), Effect.withTracerEnabled(false))).toBe(1)
      expect(recording.ended).toEqual([])
    }).pipe(Effect.provide(world)))
})
