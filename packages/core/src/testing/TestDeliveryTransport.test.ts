import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, TestClock } from "effect"
import { DeliveryTransport, type DeliveryRequest, type DeliveryResult } from "../notifications/DeliveryTransport.js"
import { ackReply, hangReply, TestDeliveryTransport } from "./TestDeliveryTransport.js"

const request = (url: string, addresses: ReadonlyArray<string> = ["203.0.113.7"]): DeliveryRequest => ({
  url,
  targets: addresses.map((address) => ({ host: "receiver.test", address, family: 4, port: 443 })),
  headers: { "Content-Type": "application/json" },
  body: "{}"
})

/** Starts the POSTs in a fiber; what was reported so far, by index, in the order reported. */
const post = (requests: ReadonlyArray<DeliveryRequest>) =>
  Effect.gen(function*() {
    const transport = yield* DeliveryTransport
    const reported: Array<[number, DeliveryResult]> = []
    const fiber = yield* Effect.fork(transport.postEach(requests, (index, result) => reported.push([index, result])))
    return { fiber, reported }
  })

const settle = Effect.repeatN(Effect.yieldNow(), 50)

describe("TestDeliveryTransport", () => {
  it.effect("reports each result the moment it is known, so a slow receiver holds back only its own", () =>
    Effect.gen(function*() {
      const control = yield* TestDeliveryTransport
      control.answer({ _tag: "Slow", after: "1 second", reply: ackReply }, "https://receiver.test/slow")
      const { fiber, reported } = yield* post([request("https://receiver.test/slow"), request("https://receiver.test/fast")])
      yield* settle
      expect(reported.map(([index]) => index)).toEqual([1])
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      expect(reported.map(([index]) => index)).toEqual([1, 0])
      expect(control.received().map((r) => r.url)).toEqual(["https://receiver.test/slow", "https://receiver.test/fast"])
    }).pipe(Effect.provide(TestDeliveryTransport.layer())))

  it.effect("interrupted, it abandons the POSTs still open: they are never reported", () =>
    Effect.gen(function*() {
      const control = yield* TestDeliveryTransport
      control.answer(hangReply, "https://receiver.test/hang")
      const { fiber, reported } = yield* post([request("https://receiver.test/hang"), request("https://receiver.test/ok")])
      yield* settle
      yield* Fiber.interrupt(fiber)
      yield* TestClock.adjust("1 hour")
      expect(reported.map(([index]) => index)).toEqual([1])
    }).pipe(Effect.provide(TestDeliveryTransport.layer())))

  it.effect("tries the checked addresses in order while one cannot be reached; a response is the receiver's answer", () =>
    Effect.gen(function*() {
      const control = yield* TestDeliveryTransport
      control.unreachable("203.0.113.7")
      control.answer({ _tag: "Respond", status: 500, body: "x".repeat(10) })
      const { fiber, reported } = yield* post([
        request("https://receiver.test/a", ["203.0.113.7", "203.0.113.8"]),
        request("https://receiver.test/b", ["203.0.113.7"])
      ])
      yield* Fiber.join(fiber)
      expect(control.received().map((r) => r.target.address)).toEqual(["203.0.113.8"])
      const results = new Map(reported)
      expect(results.get(0)).toEqual(Either.right({ status: 500, body: "x".repeat(10), truncated: false, location: null }))
      const refused = results.get(1)!
      expect(Either.isLeft(refused) && refused.left.message).toBe("could not connect to receiver.test (203.0.113.7:443): ECONNREFUSED")
    }).pipe(Effect.provide(TestDeliveryTransport.layer())))

  it.effect("cuts a body longer than its cap and says so", () =>
    Effect.gen(function*() {
      const control = yield* TestDeliveryTransport
      control.answer({ _tag: "Respond", status: 200, body: "y".repeat(12) })
      const { fiber, reported } = yield* post([request("https://receiver.test/big")])
      yield* Fiber.join(fiber)
      expect(reported).toEqual([[0, Either.right({ status: 200, body: "y".repeat(8), truncated: true, location: null })]])
    }).pipe(Effect.provide(TestDeliveryTransport.layer({ maxResponseLength: 8 }))))
})
