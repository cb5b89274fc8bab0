import { createHmac } from "node:crypto"
import type { Energy } from "@collector/core"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Redacted, TestClock } from "effect"
import { delay, HttpResponse } from "msw"
import { type CatFeeConfig, make } from "./CatFeeEnergyProvider.js"
import { catFeeUrl, fixtureText, json, makeCatFee, useCatFeeServer } from "./testing/CatFeeServer.js"

const server = useCatFeeServer()

const config: CatFeeConfig = {
  network: "nile",
  baseUrl: catFeeUrl,
  apiKey: Redacted.make("test-key"),
  apiSecret: Redacted.make("test-secret"),
  requestTimeout: Duration.millis(300),
  quotePricePerEnergy: 90n,
  quoteActivationCost: 1_500_000n
}

const adapter = (overrides: Partial<CatFeeConfig> = {}): Effect.Effect<Energy.EnergyProviderService> =>
  make({ ...config, ...overrides }).pipe(Effect.provide(FetchHttpClient.layer))

const receiver = "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g"
const rental = { receiver, energy: 65_000n, activate: false }
const orderQuery = `/v1/order?quantity=65000&receiver=${receiver}&duration=1h&client_order_id=sweep-42&activate=false`
const catFeeId = "1c6d0d5a0e8f4b1f9f1e2a7b3c4d5e6f"

describe("CatFee adapter", () => {
  it.effect("signs each request as documented: key, ISO timestamp, Base64 HMAC over timestamp + method + path and query", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 5, 1, 8, 30, 15, 42))
      const catfee = makeCatFee(server)
      catfee.on("POST", "/v1/order", fixtureText("create-order.response.json"))
      yield* (yield* adapter()).order("sweep-42", rental)
      const [request] = catfee.seen
      expect(request!.requestPath).toBe(orderQuery)
      expect(request!.headers.get("CF-ACCESS-KEY")).toBe("test-key")
      expect(request!.headers.get("CF-ACCESS-TIMESTAMP")).toBe("2026-06-01T08:30:15.042Z")
      const expected = createHmac("sha256", "test-secret").update(`2026-06-01T08:30:15.042ZPOST${orderQuery}`).digest("base64")
      expect(request!.headers.get("CF-ACCESS-SIGN")).toBe(expected)
      expect(request!.headers.get("content-type")).toBe("application/json")
    }))

  it.live("quotes 1h rentals from the configured price, at least 65,000 energy", () =>
    Effect.gen(function*() {
      const catfee = yield* adapter()
      expect(catfee).toMatchObject({ name: "catfee", supportsActivation: true, minimumEnergy: 65_000n })
      expect(yield* catfee.quote({ ...rental, activate: true })).toEqual({ energy: 65_000n, cost: 5_850_000n, activationCost: 1_500_000n, durationSeconds: 3600 })
      expect(yield* Effect.flip(catfee.quote({ ...rental, energy: 64_999n }))).toMatchObject({ _tag: "ProviderRejected" })
      // Refused before any request: msw fails the test on an unexpected one.
      expect(yield* Effect.flip(catfee.order("small", { ...rental, energy: 32_000n }))).toMatchObject({ _tag: "ProviderRejected" })
      expect(yield* Effect.flip(catfee.order("x".repeat(65), rental))).toMatchObject({ _tag: "ProviderRejected" })
    }))

  it.live("orders under client_order_id and reads the amounts charged as exact SUN", () =>
    Effect.gen(function*() {
      makeCatFee(server).on("POST", "/v1/order", fixtureText("create-order.activation.response.json"))
      expect(yield* (yield* adapter()).order("sweep-42", { ...rental, activate: true })).toEqual({
        orderId: "sweep-42",
        providerOrderId: catFeeId,
        state: "pending",
        deliveredEnergy: 0n,
        paidCost: 5_850_000n,
        activationCost: 1_500_000n,
        expiresAt: new Date(1780275600000),
        reason: ""
      })
    }))

  it.live("keeps amounts beyond 2^53 SUN exact", () =>
    Effect.gen(function*() {
      const text = fixtureText("create-order.response.json").replace('"pay_amount_sun": 5850000', '"pay_amount_sun": 9007199254740993')
      makeCatFee(server).on("POST", "/v1/order", text)
      expect((yield* (yield* adapter()).order("sweep-42", rental)).paidCost).toBe(9_007_199_254_740_993n)
    }))

  it.live("a refusal in the envelope or a 4xx is ProviderRejected", () =>
    Effect.gen(function*() {
      const catfee = makeCatFee(server)
      catfee.on(
        "POST",
        "/v1/order",
        fixtureText("error.response.json"),
        json(fixtureText("error.response.json"), 400),
        new HttpResponse("Unauthorized", { status: 401 })
      )
      const provider = yield* adapter()
      const inEnvelope = yield* Effect.flip(provider.order("r-1", rental))
      expect(inEnvelope).toMatchObject({
        _tag: "ProviderRejected",
        reason: "catfee order r-1: code 1: Insufficient balance: BALANCE_NOT_ENOUGH: account balance is not enough to pay for this order"
      })
      expect((yield* Effect.flip(provider.order("r-2", rental))).reason).toContain("HTTP 400 code 1: Insufficient balance")
      expect((yield* Effect.flip(provider.order("r-3", rental))).reason).toContain("refused the credentials")
    }))

  it.live("a network failure, a 5xx, a 429, a timeout or an unreadable answer is ProviderUnavailable", () =>
    Effect.gen(function*() {
      makeCatFee(server).on(
        "POST",
        "/v1/order",
        HttpResponse.error(),
        new HttpResponse("Bad Gateway", { status: 502 }),
        new HttpResponse("slow down", { status: 429 }),
        async () => {
          await delay(2_000)
          return fixtureText("create-order.response.json")
        },
        "<html>maintenance</html>",
        `{"code": 0, "msg": "success", "data": {"id": 1}}`
      )
      const provider = yield* adapter()
      const reasons = []
      for (let i = 0; i < 6; i++) {
        const error = yield* Effect.flip(provider.order(`u-${i}`, rental))
        expect(error._tag).toBe("ProviderUnavailable")
        reasons.push(error.reason)
      }
      expect(reasons[1]).toContain("HTTP 502")
      expect(reasons[2]).toContain("HTTP 429")
      expect(reasons[3]).toContain("no answer within")
      expect(reasons[4]).toContain("unreadable answer")
      expect(reasons[5]).toContain("unreadable answer")
    }))

  it.effect("find reads an answered order by CatFee's id and maps its states", () =>
    Effect.gen(function*() {
      // Ten minutes into the fixtures' rental hour.
      yield* TestClock.setTime(1780272600000)
      const catfee = makeCatFee(server)
      catfee.on("POST", "/v1/order", fixtureText("create-order.response.json"))
      catfee.on(
        "GET",
        `/v1/order/${catFeeId}`,
        fixtureText("create-order.response.json"),
        fixtureText("order-detail.delegate-success.json"),
        fixtureText("order-detail.delegation-confirmed.json"),
        fixtureText("order-detail.reclaimed.json"),
        fixtureText("order-detail.delegate-fail.json")
      )
      const provider = yield* adapter()
      yield* provider.order("sweep-42", rental)
      const states = []
      for (let i = 0; i < 5; i++) states.push(Option.getOrThrow(yield* provider.find("sweep-42")))
      expect(states.map((order) => [order.state, order.deliveredEnergy])).toEqual([
        ["pending", 0n],
        ["pending", 0n],
        ["delivered", 65_000n],
        ["expired", 65_000n],
        ["failed", 0n]
      ])
      expect(states[4]!.reason).toBe("DELEGATE_FAIL / UNCONFIRMED")
      expect(catfee.seen.filter((r) => r.method === "GET").every((r) => r.requestPath === `/v1/order/${catFeeId}`)).toBe(true)
    }))

  it.live("a delivered order whose hour is over is expired", () =>
    Effect.gen(function*() {
      const past = fixtureText("order-detail.delegation-confirmed.json").replace('"expired_timestamp": 1780275600000', '"expired_timestamp": 1600000000')
      const catfee = makeCatFee(server)
      catfee.on("POST", "/v1/order", fixtureText("create-order.response.json"))
      catfee.on("GET", `/v1/order/${catFeeId}`, past)
      const provider = yield* adapter()
      yield* provider.order("sweep-42", rental)
      expect(Option.getOrThrow(yield* provider.find("sweep-42"))).toMatchObject({ state: "expired", expiresAt: new Date(1_600_000_000_000) })
    }))

  it.live("after an unknown outcome, find resubmits the same client_order_id: the original order, or None when refused", () =>
    Effect.gen(function*() {
      const catfee = makeCatFee(server)
      catfee.on("POST", "/v1/order", new HttpResponse("Gateway Timeout", { status: 504 }), fixtureText("create-order.response.json"))
      const provider = yield* adapter()
      expect((yield* Effect.flip(provider.order("sweep-42", rental)))._tag).toBe("ProviderUnavailable")
      expect(Option.getOrThrow(yield* provider.find("sweep-42"))).toMatchObject({ orderId: "sweep-42", providerOrderId: catFeeId, state: "pending" })
      expect(catfee.seen.map((r) => r.requestPath)).toEqual([orderQuery, orderQuery])

      makeCatFee(server).on("POST", "/v1/order", HttpResponse.error(), fixtureText("error.response.json"))
      expect((yield* Effect.flip(provider.order("sweep-43", rental)))._tag).toBe("ProviderUnavailable")
      expect(yield* provider.find("sweep-43")).toEqual(Option.none())
    }))

  it.live("find cannot verify a number this process never sent", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip((yield* adapter()).find("from-before-a-restart"))
      expect(error._tag).toBe("ProviderUnavailable")
      expect(error.reason).toContain("no lookup by client_order_id")
    }))

  it.live("find by id: a 5xx or a refusal leaves the order unknown, never None", () =>
    Effect.gen(function*() {
      const catfee = makeCatFee(server)
      catfee.on("POST", "/v1/order", fixtureText("create-order.response.json"))
      catfee.on("GET", `/v1/order/${catFeeId}`, new HttpResponse("oops", { status: 500 }), fixtureText("error.response.json"))
      const provider = yield* adapter()
      yield* provider.order("sweep-42", rental)
      expect((yield* Effect.flip(provider.find("sweep-42")))._tag).toBe("ProviderUnavailable")
      expect((yield* Effect.flip(provider.find("sweep-42")))._tag).toBe("ProviderUnavailable")
    }))
})
