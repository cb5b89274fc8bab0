import { Option } from "effect"
import type { BookOrder } from "./ProviderBook.js"
import { inclusionOf, type SimState } from "./SimState.js"

/**
 * An order as the provider reports it, read against the chain: delivered once its delegation is
 * in a canonical block, expired once the provider's undelegation is. A failed order is refunded,
 * so it costs nothing; every other order was paid in full when it was taken (an under-delivering
 * provider still charges for what was ordered, and says how much it delegated).
 */

export type ProviderOrderState = "pending" | "delivered" | "failed" | "expired"

export interface OrderView {
  readonly order: BookOrder
  readonly state: ProviderOrderState
  readonly deliveredEnergy: bigint
  /** SUN charged for the energy. */
  readonly cost: bigint
  /** SUN charged for the activation. */
  readonly activationCost: bigint
  readonly deliveredAt: Option.Option<number>
  readonly expiresAt: Option.Option<number>
  readonly reason: string
}

/** The time of the canonical block including `txid`. */
const includedAt = (state: SimState, txid: Option.Option<string>): Option.Option<number> =>
  Option.flatMap(txid, (id) => Option.map(inclusionOf(state, id), ({ block }) => block.timestamp))

export const viewOf = (order: BookOrder, state: SimState): OrderView => {
  const cost = order.energy * order.pricePerEnergy
  if (Option.isSome(order.failed)) {
    return {
      order,
      state: "failed",
      deliveredEnergy: 0n,
      cost: 0n,
      activationCost: 0n,
      deliveredAt: Option.none(),
      expiresAt: Option.none(),
      reason: order.failed.value
    }
  }
  const deliveredAt = includedAt(state, order.delegateTxid)
  const expiresAt = Option.map(deliveredAt, (at) => at + order.durationMs)
  const base = { order, cost, activationCost: order.activationCost, deliveredAt, expiresAt, reason: "" }
  if (Option.isNone(deliveredAt)) return { ...base, state: "pending", deliveredEnergy: 0n }
  const expired = Option.isSome(includedAt(state, order.undelegateTxid))
  return { ...base, state: expired ? "expired" : "delivered", deliveredEnergy: order.delegatedEnergy }
}

const iso = (at: Option.Option<number>) => Option.match(at, { onNone: () => null, onSome: (ms) => new Date(ms).toISOString() })

/** The wire form: integers (energy, SUN) as digit strings, times as ISO 8601 or null, missing txids as "". */
export const orderJson = (view: OrderView) => ({
  order_no: view.order.orderNo,
  provider_order_id: view.order.providerOrderId,
  receiver: view.order.receiver,
  energy: view.order.energy.toString(),
  delivered_energy: view.deliveredEnergy.toString(),
  activate: view.order.activate,
  state: view.state,
  price_sun: view.order.pricePerEnergy.toString(),
  cost_sun: view.cost.toString(),
  activation_cost_sun: view.activationCost.toString(),
  duration_seconds: Math.floor(view.order.durationMs / 1000),
  created_at: new Date(view.order.createdAt).toISOString(),
  delivered_at: iso(view.deliveredAt),
  expires_at: iso(view.expiresAt),
  reason: view.reason,
  activation_txid: Option.getOrElse(view.order.activationTxid, () => ""),
  delegate_txid: Option.getOrElse(view.order.delegateTxid, () => ""),
  undelegate_txid: Option.getOrElse(view.order.undelegateTxid, () => "")
})
