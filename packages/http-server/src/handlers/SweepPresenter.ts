import type { SweepCreateResult, SweepEstimate as WireEstimate, SweepTask as WireTask, SweepWebhook } from "@collector/api"
import type { Energy, Kernel, Notifications, Sweeps } from "@collector/core"
import { presentDeliveryState } from "./WebhookPresenter.js"

const time = (date: Date) => date.toISOString()
const timeOrNull = (date: Date | null) => (date === null ? null : date.toISOString())
const textOrNull = (n: bigint | null) => (n === null ? null : n.toString())

const presentWebhook = (event: Notifications.NotificationEvent): typeof SweepWebhook.Type => ({
  ...presentDeliveryState(event),
  // The event of a sweep task is always one of its terminal sweep.* events.
  event_type: event.eventType as typeof SweepWebhook.Type["event_type"]
})

const presentRental = (rental: Energy.EnergyRental) => ({
  order_id: rental.orderId,
  quantity: rental.quantity.toString(),
  estimated_cost: rental.estimatedCost.toString(),
  paid_cost: rental.paidCost.toString(),
  activation_cost: rental.activationCost.toString(),
  state: rental.state,
  expires_at: timeOrNull(rental.expiresAt)
})

/** The 24-member sweep detail object, in the contract's order. */
export const presentSweep = (task: Sweeps.SweepTask, webhook: Notifications.NotificationEvent | null): typeof WireTask.Type => ({
  network: task.network,
  id: task.id,
  wallet_id: task.walletId,
  address: task.address,
  kind: "sweep",
  sweep_mode: task.mode,
  requested_amount: textOrNull(task.requestedAmount),
  amount: task.amount.toString(),
  destination: task.destination,
  status: task.status,
  reason: task.reason,
  txid: task.transaction?.txid ?? "",
  actual_fee: task.actualFee.toString(),
  created_at: time(task.createdAt),
  updated_at: time(task.updatedAt),
  webhook: webhook === null ? null : presentWebhook(webhook),
  // The sub-stages belong to pending; every later status is past preparation.
  preparation_stage: task.status === "pending" ? task.stage : "ready",
  energy_rental: task.rental === null ? null : presentRental(task.rental),
  fee_source: task.feeSource,
  prepared_energy: textOrNull(task.preparedEnergy),
  estimated_wallet_trx_fee: textOrNull(task.estimatedWalletTrxFee),
  max_wallet_trx_fee: textOrNull(task.maxWalletTrxFee),
  actual_bandwidth_fee: textOrNull(task.actualBandwidthFee),
  fee_warning: task.feeWarning,
  energy_path: task.energyPath,
  fee_reason: task.feeReason
})

export const presentView = (view: Sweeps.SweepView) => presentSweep(view.task, view.webhook)

export const presentBatch = (network: Kernel.Network, batch: Sweeps.SweepBatch): typeof SweepCreateResult.Type => ({
  network,
  items: batch.items.map((item) =>
    item.ok
      ? { wallet_id: item.walletId, ok: true, task: presentSweep(item.task, null), error: null }
      : { wallet_id: item.walletId, ok: false, task: null, error: { error_code: item.failure, message: item.message } }
  ),
  created: batch.created,
  failed: batch.failed
})

export const presentEstimate = (network: Kernel.Network, estimate: Sweeps.SweepEstimate): typeof WireEstimate.Type => ({
  network,
  items: estimate.items.map((item) => ({
    wallet_id: item.walletId,
    address: item.address,
    amount: item.amount.toString(),
    sweepable: item.sweepable,
    reason: item.reason,
    fee_source: item.feeSource,
    energy_estimate: item.energyEstimate.toString(),
    prepared_energy: item.preparedEnergy.toString(),
    energy_available: item.energyAvailable.toString(),
    estimated_wallet_trx_fee: item.estimatedWalletTrxFee.toString(),
    estimated_rental_cost: item.estimatedRentalCost.toString(),
    estimated_activation_cost: item.estimatedActivationCost.toString(),
    bandwidth_needed: item.bandwidthNeeded.toString(),
    bandwidth_available: item.bandwidthAvailable.toString(),
    waits_for_bandwidth: item.waitsForBandwidth,
    energy_path: item.energyPath,
    fee_reason: item.feeReason
  })),
  not_found_ids: estimate.notFound,
  total: {
    amount: estimate.total.amount.toString(),
    prepared_energy: estimate.total.preparedEnergy.toString(),
    estimated_wallet_trx_fee: estimate.total.estimatedWalletTrxFee.toString(),
    estimated_rental_cost: estimate.total.estimatedRentalCost.toString(),
    estimated_activation_cost: estimate.total.estimatedActivationCost.toString()
  }
})
