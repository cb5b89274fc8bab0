import type { Energy } from "@collector/core"
import { Schema } from "effect"
import { DigitsBigInt } from "./Sun.js"

/**
 * CatFee's replies (docs.catfee.io, API Reference "Buy Energy" and "Get Order Detail"): an
 * envelope `{code, msg, sub_code, sub_msg, data}` whose `code` 0 is success, and the order
 * object. Read with every number as text (core's LosslessJson, "allAsText"), so `*_sun` amounts stay exact bigints.
 *
 * States. The pages name `status` PAYMENT_SUCCESS and DELEGATE_SUCCESS (the delegation was
 * broadcast; about 0.1% still fail to land), `confirm_status` UNCONFIRMED and
 * DELEGATION_CONFIRMED (confirmed on chain), and `activate_status` DEACTIVATE. They list no
 * failure or expiry values, so the mapping is cautious: delivered only once
 * DELEGATION_CONFIRMED; expired once CatFee reclaimed the energy (a reclaim hash or time) or the
 * expiry time passed; failed when a status contains FAIL or REFUND; pending otherwise. The
 * sweeper checks the delegation on chain in any case.
 */

const Text = Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
const Sun = Schema.optionalWith(Schema.NullOr(DigitsBigInt), { default: () => null })

export const Envelope = Schema.Struct({
  code: Schema.String,
  msg: Text,
  sub_code: Text,
  sub_msg: Text,
  data: Schema.optionalWith(Schema.Unknown, { default: () => null })
})

export const OrderData = Schema.Struct({
  id: Schema.String,
  client_order_id: Text,
  receiver: Text,
  quantity: DigitsBigInt,
  pay_amount_sun: Sun,
  activate_amount_sun: Sun,
  status: Schema.String,
  confirm_status: Text,
  activate_status: Text,
  delegate_hash: Text,
  reclaim_hash: Text,
  reclaim_timestamp: Sun,
  expired_timestamp: Sun
})

export type OrderData = typeof OrderData.Type

/** CatFee's timestamps: milliseconds, or seconds when too small to be milliseconds; 0 is none. */
export const timeOf = (value: bigint | null): Date | null => {
  if (value === null || value === 0n) return null
  return new Date(Number(value >= 100_000_000_000n ? value : value * 1000n))
}

const present = (text: string | null) => text !== null && text !== ""

export const stateOf = (order: OrderData, now: number): Energy.ProviderOrderState => {
  const expiresAt = timeOf(order.expired_timestamp)
  if (present(order.reclaim_hash) || (order.reclaim_timestamp ?? 0n) > 0n) return "expired"
  if (order.confirm_status === "DELEGATION_CONFIRMED") return expiresAt !== null && expiresAt.getTime() <= now ? "expired" : "delivered"
  if (/FAIL|REFUND/.test(`${order.status} ${order.confirm_status ?? ""}`)) return "failed"
  return "pending"
}

export const orderOf = (order: OrderData, orderId: string, now: number): Energy.ProviderOrder => {
  const state = stateOf(order, now)
  return {
    orderId: order.client_order_id ?? orderId,
    providerOrderId: order.id,
    state,
    deliveredEnergy: state === "delivered" || state === "expired" ? order.quantity : 0n,
    paidCost: order.pay_amount_sun ?? 0n,
    activationCost: order.activate_amount_sun ?? 0n,
    expiresAt: timeOf(order.expired_timestamp),
    reason: state === "failed" ? [order.status, order.confirm_status].filter(present).join(" / ") : ""
  }
}

/** The most telling text of a refusal. */
export const refusalText = (envelope: typeof Envelope.Type): string =>
  [`code ${envelope.code}`, envelope.msg, envelope.sub_code, envelope.sub_msg].filter((part): part is string => present(part)).join(": ")
