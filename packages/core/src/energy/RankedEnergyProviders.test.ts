import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, TestClock } from "effect"
import { type EnergyProviderService, type ProviderOrder, ProviderRejected, ProviderUnavailable, type RentalQuote, type RentalRequest } from "./EnergyProvider.js"
import { rankedEnergyProviders } from "./RankedEnergyProviders.js"

type Fault = "none" | "down" | "refuses" | "loses-answer" | "silent"

/**
 * A rental provider kept in memory: it takes each order number at most once (the port's rule),
 * charges `price` SUN per energy, and can be made to fail in the ways a real one does.
 */
const bookProvider = (name: string, price: bigint, minimumEnergy = 65_000n) => {
  const book = new Map<string, ProviderOrder>()
  const state = { fault: "none" as Fault, lookupDown: false, quotes: 0, orderCalls: 0 }
  const take = (orderId: string, request: RentalRequest): ProviderOrder => {
    const existing = book.get(orderId)
    if (existing !== undefined) return existing
    const order: ProviderOrder = {
      orderId,
      providerOrderId: `${name}-${book.size + 1}`,
      state: "pending",
      deliveredEnergy: 0n,
      paidCost: request.energy * price,
      activationCost: 0n,
      expiresAt: null,
      reason: ""
    }
    book.set(orderId, order)
    return order
  }
  const service: EnergyProviderService = {
    name,
    supportsActivation: false,
    minimumEnergy,
    quote: (request) =>
      Effect.suspend((): Effect.Effect<RentalQuote, ProviderUnavailable | ProviderRejected> => {
        state.quotes++
        switch (state.fault) {
          case "down":
            return Effect.fail(new ProviderUnavailable({ reason: "HTTP 503" }))
          case "silent":
            return Effect.never
          case "refuses":
            return Effect.fail(new ProviderRejected({ reason: "no stock" }))
          default:
            return Effect.succeed({ energy: request.energy, cost: request.energy * price, activationCost: 0n, durationSeconds: 3600 })
        }
      }),
    order: (orderId, request) =>
      Effect.suspend((): Effect.Effect<ProviderOrder, ProviderUnavailable | ProviderRejected> => {
        state.orderCalls++
        switch (state.fault) {
          case "down":
          case "silent":
            return Effect.fail(new ProviderUnavailable({ reason: "HTTP 503" }))
          case "refuses":
            return Effect.fail(new ProviderRejected({ reason: "no stock" }))
          case "loses-answer":
            take(orderId, request)
            return Effect.fail(new ProviderUnavailable({ reason: "connection reset" }))
          default:
            return Effect.succeed(take(orderId, request))
        }
      }),
    find: (orderId) =>
      state.lookupDown ? Effect.fail(new ProviderUnavailable({ reason: "HTTP 502" })) : Effect.sync(() => Option.fromNullable(book.get(orderId)))
  }
  return { service, book, state }
}

const request: RentalRequest = { receiver: "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g", energy: 65_000n, activate: false }
const options = { answerTimeout: Duration.seconds(5), coolDown: Duration.minutes(5) }

describe("ranked energy providers", () => {
  it.effect("quotes every provider and answers the cheapest, naming it", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      // 65,000 energy at 80 SUN from b.
      expect(yield* ranked.quote(request)).toEqual({ energy: 65_000n, cost: 5_200_000n, activationCost: 0n, durationSeconds: 3600, provider: "b" })
      expect([a.state.quotes, b.state.quotes]).toEqual([1, 1])
    }))

  it.effect("breaks a tie by the listed order", () =>
    Effect.gen(function*() {
      const ranked = yield* rankedEnergyProviders([bookProvider("first", 80n).service, bookProvider("second", 80n).service], options)
      expect((yield* ranked.quote(request)).provider).toBe("first")
    }))

  it.effect("asks each provider for at least its own smallest order", () =>
    Effect.gen(function*() {
      const small = bookProvider("small", 100n, 32_000n)
      const large = bookProvider("large", 50n, 65_000n)
      const ranked = yield* rankedEnergyProviders([small.service, large.service], options)
      expect(ranked.minimumEnergy).toBe(32_000n)
      // 40,000 at 100 = 4,000,000 from small; large must sell 65,000 at 50 = 3,250,000: cheaper in total.
      expect(yield* ranked.quote({ ...request, energy: 40_000n })).toMatchObject({ energy: 65_000n, cost: 3_250_000n, provider: "large" })
    }))

  it.effect("passes over a provider that refuses the quote, and rests none for it", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      b.state.fault = "refuses"
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      expect((yield* ranked.quote(request)).provider).toBe("a")
      b.state.fault = "none"
      expect((yield* ranked.quote(request)).provider).toBe("b")
    }))

  it.effect("a provider that does not answer a quote in time rests for the cool-down, then is asked again", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      b.state.fault = "silent"
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      const first = yield* Effect.fork(ranked.quote(request))
      yield* TestClock.adjust(Duration.seconds(5))
      expect((yield* Fiber.join(first)).provider).toBe("a")
      b.state.fault = "none"
      // Resting: b is not asked although it answers again.
      expect((yield* ranked.quote(request)).provider).toBe("a")
      expect(b.state.quotes).toBe(1)
      yield* TestClock.adjust(Duration.minutes(5))
      expect((yield* ranked.quote(request)).provider).toBe("b")
      expect(b.state.quotes).toBe(2)
    }))

  it.effect("when every provider rests, all are asked rather than none", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      a.state.fault = "down"
      const ranked = yield* rankedEnergyProviders([a.service], options)
      expect(yield* Effect.flip(ranked.quote(request))).toMatchObject({ _tag: "ProviderUnavailable", reason: "a: HTTP 503" })
      a.state.fault = "none"
      expect((yield* ranked.quote(request)).provider).toBe("a")
    }))

  it.effect("all refusing is a refusal with each reason; any not answering is unavailable", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      a.state.fault = "refuses"
      b.state.fault = "refuses"
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      expect(yield* Effect.flip(ranked.quote(request))).toEqual(new ProviderRejected({ reason: "a: no stock; b: no stock" }))
      b.state.fault = "down"
      expect(yield* Effect.flip(ranked.quote(request))).toEqual(new ProviderUnavailable({ reason: "b: HTTP 503; a: no stock" }))
    }))

  it.effect("orders from the provider the quote named, and from no other", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      const order = yield* ranked.order("task-1", { ...request, provider: "b" })
      expect(order).toMatchObject({ orderId: "task-1", providerOrderId: "b-1", paidCost: 5_200_000n })
      expect([a.book.size, b.book.size]).toEqual([0, 1])
    }))

  it.effect("a refused order is a refusal, nothing is ordered elsewhere, and the provider rests so the next quote goes to the next", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      b.state.fault = "refuses"
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      expect(yield* Effect.flip(ranked.order("task-1", { ...request, provider: "b" }))).toEqual(new ProviderRejected({ reason: "b: no stock" }))
      expect(a.state.orderCalls).toBe(0)
      b.state.fault = "none"
      expect((yield* ranked.quote(request)).provider).toBe("a")
    }))

  it.effect("an order whose answer was lost is looked up at its provider and returned; the other is never called", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      b.state.fault = "loses-answer"
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      expect(yield* ranked.order("task-1", { ...request, provider: "b" })).toMatchObject({ orderId: "task-1", providerOrderId: "b-1" })
      expect([a.state.orderCalls, a.book.size, b.book.size]).toEqual([0, 0, 1])
    }))

  it.effect("a lost answer that cannot be looked up is unavailable, and ordering again under the number is never a second order", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      b.state.fault = "loses-answer"
      b.state.lookupDown = true
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      expect(yield* Effect.flip(ranked.order("task-1", { ...request, provider: "b" }))).toEqual(new ProviderUnavailable({ reason: "b: connection reset" }))
      expect(yield* Effect.flip(ranked.find("task-1"))).toMatchObject({ _tag: "ProviderUnavailable" })
      // The sweeper tries again under the same number, even with b resting and a cheaper now.
      b.state.fault = "none"
      b.state.lookupDown = false
      expect(yield* ranked.order("task-1", { ...request, provider: "b" })).toMatchObject({ providerOrderId: "b-1" })
      expect([a.state.orderCalls, a.book.size, b.book.size]).toEqual([0, 0, 1])
    }))

  it.effect("an order for a provider no longer listed is unavailable, never placed elsewhere", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const ranked = yield* rankedEnergyProviders([a.service, bookProvider("b", 80n).service], options)
      expect(yield* Effect.flip(ranked.order("task-1", { ...request, provider: "gone" }))).toMatchObject({ _tag: "ProviderUnavailable" })
      expect(yield* Effect.flip(ranked.order("task-1", request))).toMatchObject({ _tag: "ProviderUnavailable" })
      expect(a.state.orderCalls).toBe(0)
    }))

  it.effect("finds an order at whichever provider holds it (after a restart), and says none only when every one answered", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      yield* b.service.order("task-1", request)
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      expect(Option.getOrThrow(yield* ranked.find("task-1")).providerOrderId).toBe("b-1")
      expect(yield* ranked.find("task-2")).toEqual(Option.none())
      a.state.lookupDown = true
      expect(yield* Effect.flip(ranked.find("task-2"))).toEqual(new ProviderUnavailable({ reason: "a: HTTP 502" }))
      // Found at b although a cannot answer.
      expect(Option.isSome(yield* ranked.find("task-1"))).toBe(true)
    }))

  it.effect("a fault the sweeper reports (short delivery on chain) rests that provider", () =>
    Effect.gen(function*() {
      const a = bookProvider("a", 90n)
      const b = bookProvider("b", 80n)
      const ranked = yield* rankedEnergyProviders([a.service, b.service], options)
      yield* ranked.reportFault!("b", "order task-1 under-delivered")
      expect((yield* ranked.quote(request)).provider).toBe("a")
      // The operator reads which rests, until when (the test clock starts at 0; five minutes) and why.
      expect(yield* ranked.health!).toEqual([
        { provider: "a", rest: null },
        { provider: "b", rest: { until: new Date(300_000), reason: "order task-1 under-delivered" } }
      ])
      yield* TestClock.adjust(Duration.minutes(5))
      expect((yield* ranked.quote(request)).provider).toBe("b")
      expect((yield* ranked.health!).map((s) => s.rest)).toEqual([null, null])
    }))
})
