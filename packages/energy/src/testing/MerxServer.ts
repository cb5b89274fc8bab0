import { randomUUID } from "node:crypto"
import { http, HttpResponse } from "msw"
import type { SetupServer } from "msw/node"

/**
 * A stand-in for Merx (https://merx.exchange/docs/api) for tests, answering the adapter's real
 * fetch requests as the documentation describes: `GET /orders/preview` with `best`, `fallbacks`
 * and `no_providers`; `POST /orders` needing `X-API-Key`, at least 65,000 energy, and answering
 * the same `Idempotency-Key` with the original order (201 once, the same body again); `GET
 * /orders/{id}`; errors as `{"error": {"code", "message"}}`. Orders fill when `fill` is called.
 * The docs name only UNAUTHORIZED among the error codes, so the others here are illustrative.
 */

export const merxUrl = "https://merx.test/api/v1"
export const merxKey = "sk_live_test"

export interface MerxOrder {
  id: string
  status: "PENDING" | "EXECUTING" | "FILLED" | "FAILED"
  amount: number
  duration_sec: number
  target_address: string
  max_price_sun: number | null
  total_cost_sun: number | null
  total_fee_sun: number | null
  fills: Array<{ provider: string; amount: number; price_sun: number; cost_sun: number; tx_id: string; status: string; verified: boolean }>
  created_at: string
  filled_at: string | null
}

export type MerxFault = "none" | "down" | "lose-answer" | "no-providers"

const problem = (status: number, code: string, message: string) => HttpResponse.json({ error: { code, message } }, { status })

export const makeMerx = (server: SetupServer, options: { priceSun?: number } = {}) => {
  const state = {
    priceSun: options.priceSun ?? 32,
    fault: "none" as MerxFault,
    orders: new Map<string, MerxOrder>(),
    byKey: new Map<string, string>(),
    posts: [] as Array<{ key: string | null; body: unknown }>,
    previews: [] as Array<string>
  }
  const authorised = (request: Request) => request.headers.get("X-API-Key") === merxKey
  const unauthorised = () => problem(401, "UNAUTHORIZED", "Invalid or missing API key")

  server.use(
    http.get(`${merxUrl}/orders/preview`, ({ request }) => {
      const url = new URL(request.url)
      state.previews.push(url.search)
      if (state.fault === "down") return problem(503, "MAINTENANCE", "Service is under maintenance")
      const amount = Number(url.searchParams.get("amount"))
      const duration = Number(url.searchParams.get("duration"))
      if (url.searchParams.get("resource") !== "ENERGY" || !(amount >= 65_000) || !(duration > 0)) {
        return problem(400, "VALIDATION_ERROR", "Energy orders require a minimum of 65000 units")
      }
      if (state.fault === "no-providers") return HttpResponse.json({ best: null, fallbacks: [], no_providers: true })
      const offer = { provider: "sohu", displayName: "Sohu Energy", price_sun: state.priceSun, cost_trx: (amount * state.priceSun) / 1_000_000, duration_sec: duration }
      return HttpResponse.json({ best: offer, fallbacks: [], no_providers: false })
    }),
    http.post(`${merxUrl}/orders`, async ({ request }) => {
      const key = request.headers.get("Idempotency-Key")
      const body = (await request.json()) as Record<string, unknown>
      state.posts.push({ key, body })
      if (state.fault === "down") return problem(503, "MAINTENANCE", "Service is under maintenance")
      if (!authorised(request)) return unauthorised()
      const existing = key === null ? undefined : state.byKey.get(key)
      if (existing !== undefined) return HttpResponse.json(state.orders.get(existing), { status: 201 })
      const amount = Number(body.amount)
      if (body.resource_type !== "ENERGY" || !(amount >= 65_000)) return problem(400, "VALIDATION_ERROR", "Energy orders require a minimum of 65000 units")
      const order: MerxOrder = {
        id: randomUUID(),
        status: "PENDING",
        amount,
        duration_sec: Number(body.duration_sec),
        target_address: String(body.target_address),
        max_price_sun: typeof body.max_price_sun === "number" ? body.max_price_sun : null,
        total_cost_sun: null,
        total_fee_sun: null,
        fills: [],
        created_at: new Date().toISOString(),
        filled_at: null
      }
      state.orders.set(order.id, order)
      if (key !== null) state.byKey.set(key, order.id)
      if (state.fault === "lose-answer") return HttpResponse.error()
      return HttpResponse.json(order, { status: 201 })
    }),
    http.get(`${merxUrl}/orders/:id`, ({ params, request }) => {
      if (state.fault === "down") return problem(503, "MAINTENANCE", "Service is under maintenance")
      if (!authorised(request)) return unauthorised()
      const order = state.orders.get(String(params.id))
      return order === undefined ? problem(404, "NOT_FOUND", "Order not found") : HttpResponse.json(order)
    })
  )

  /** Merx filled the order (`delivered` energy of it) at the current price. */
  const fill = (id: string, delivered?: number) => {
    const order = state.orders.get(id)!
    const amount = delivered ?? order.amount
    order.status = "FILLED"
    order.total_cost_sun = amount * state.priceSun
    order.total_fee_sun = 0
    order.fills = [{ provider: "sohu", amount, price_sun: state.priceSun, cost_sun: amount * state.priceSun, tx_id: "a1b2", status: "CONFIRMED", verified: true }]
    order.filled_at = "2026-03-29T12:05:03.000Z"
  }

  return { state, fill }
}
