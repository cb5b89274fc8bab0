import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { startSimNode } from "./testing/SimNode.js"
import { wallet } from "./testing/SimWallet.js"

const active = wallet(1)
const fresh = wallet(2)

/** POSTs JSON; the status and the parsed body (the text when it is not JSON), or the transport error's text. */
const post = (url: string, body: unknown = {}) =>
  Effect.promise(async () => {
    try {
      const response = await fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } })
      const text = await response.text()
      try {
        return { status: response.status, body: JSON.parse(text) }
      } catch {
        return { status: response.status, body: text as any }
      }
    } catch (error) {
      return { status: 0, body: String(error) as any }
    }
  })

const started = Effect.map(startSimNode({ genesisAccounts: [{ address: active.address, trx: 1_000_000n }] }), (sim) => ({
  sim,
  provider: (path: string, body: unknown = {}) => post(`${sim.url}/provider/v1/${path}`, body),
  control: (path: string, body: unknown = {}) => post(`${sim.url}/sim/provider/${path}`, body),
  energyLimit: (address: string) =>
    Effect.map(post(`${sim.url}/wallet/getaccountresource`, { address, visible: true }), (reply) => BigInt(reply.body.EnergyLimit ?? 0))
}))

const rental = { receiver: active.address, energy: 65_000, activate: false }

describe("the simulated provider over HTTP", () => {
  it.scopedLive("quotes, takes an order, delegates it on chain, and answers the same order for the same number", () =>
    Effect.gen(function*() {
      const { control, energyLimit, provider, sim } = yield* started
      const quote = yield* provider("quote", { receiver: fresh.address, energy: "65000", activate: true })
      expect(quote).toEqual({
        status: 200,
        body: {
          ok: true,
          receiver: fresh.address,
          energy: "65000",
          price_sun: "90",
          cost_sun: "5850000",
          activation_cost_sun: "1100000",
          total_sun: "6950000",
          duration_seconds: 3600
        }
      })
      const ordered = yield* provider("order", { order_no: "sweep-1", ...rental })
      expect(ordered.status).toBe(200)
      expect(ordered.body.order).toMatchObject({
        order_no: "sweep-1",
        provider_order_id: "SIM00000001",
        receiver: active.address,
        energy: "65000",
        delivered_energy: "0",
        state: "pending",
        cost_sun: "5850000",
        activation_cost_sun: "0",
        delivered_at: null,
        expires_at: null
      })
      yield* sim.chain.mine()
      const found = yield* provider("order/query", { order_no: "sweep-1" })
      expect(found.body).toMatchObject({ ok: true, found: true, order: { state: "delivered", delivered_energy: "65000" } })
      expect(found.body.order.delegate_txid).toMatch(/^[0-9a-f]{64}$/)
      expect(Date.parse(found.body.order.expires_at) - Date.parse(found.body.order.delivered_at)).toBe(3_600_000)
      const limit = yield* energyLimit(active.address)
      expect(limit).toBeGreaterThanOrEqual(65_000n)
      const again = yield* provider("order", { order_no: "sweep-1", ...rental, energy: 130_000 })
      expect(again.body.order).toMatchObject({ provider_order_id: "SIM00000001", energy: "65000", state: "delivered" })
      yield* sim.chain.mine()
      expect(yield* energyLimit(active.address)).toBe(limit)
      expect((yield* provider("order/query", { order_no: "nobody" })).body).toEqual({ ok: true, found: false })
      expect((yield* control("orders")).body.orders).toHaveLength(1)
    }))

  it.scopedLive("refuses with HTTP 400 and a code; bad input is a refusal too", () =>
    Effect.gen(function*() {
      const { control, provider } = yield* started
      expect(yield* control("reject", { reason: "sold out" })).toEqual({ status: 200, body: { ok: true } })
      expect(yield* provider("order", { order_no: "r-1", ...rental })).toEqual({ status: 400, body: { ok: false, code: "REJECTED", error: "sold out" } })
      expect((yield* provider("order/query", { order_no: "r-1" })).body.found).toBe(false)
      expect((yield* provider("order", { order_no: "r-2", ...rental, receiver: fresh.address })).body.code).toBe("NOT_ACTIVATED")
      expect((yield* provider("order", { ...rental })).body).toEqual({ ok: false, code: "INVALID_REQUEST", error: "order_no is required" })
      expect((yield* provider("quote", { ...rental, energy: 1.5 })).status).toBe(400)
      expect((yield* post(`${(yield* started).sim.url}/provider/v1/quote`, [1])).body.code).toBe("INVALID_REQUEST")
    }))

  it.scopedLive("unknown: the order is made but the answer is a 504 or a closed connection", () =>
    Effect.gen(function*() {
      const { control, provider, sim } = yield* started
      yield* control("unknown", { count: 2 })
      expect(yield* provider("order", { order_no: "u-1", ...rental })).toEqual({ status: 504, body: "Gateway Timeout" })
      expect((yield* provider("order", { order_no: "u-1", ...rental })).status).toBe(504)
      yield* control("unknown", { mode: "close" })
      const closed = yield* provider("order", { order_no: "u-2", ...rental })
      expect(closed.status).toBe(0)
      yield* sim.chain.mine()
      expect((yield* provider("order/query", { order_no: "u-1" })).body.order.state).toBe("delivered")
      expect((yield* provider("order/query", { order_no: "u-2" })).body.order.state).toBe("delivered")
    }))

  it.scopedLive("fault controls check their input and report what is armed", () =>
    Effect.gen(function*() {
      const { control, provider, sim } = yield* started
      expect((yield* control("under-deliver", { percent: 100 })).body.error).toContain("percent must be between 1 and 99")
      expect((yield* control("unknown", { mode: "later" })).body.error).toContain("mode must be")
      expect((yield* control("slow", { blocks: 2, count: "3" })).status).toBe(200)
      yield* control("fail", {})
      yield* control("price", { sun: "75" })
      const listed = (yield* control("orders")).body
      expect(listed.price_sun).toBe("75")
      expect(listed.faults).toMatchObject({ slow: { value: 2, remaining: 3 }, fail: { value: "the provider could not delegate", remaining: 1 }, reject: null })
      yield* provider("order", { order_no: "f-1", ...rental })
      yield* sim.chain.mine(3)
      expect((yield* provider("order/query", { order_no: "f-1" })).body.order).toMatchObject({ state: "failed", cost_sun: "0", price_sun: "75" })
      yield* control("reset")
      expect((yield* control("orders")).body.faults.slow).toBeNull()
    }))
})
