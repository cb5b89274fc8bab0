import type { AutomationPolicy, CollectionSetting, NotificationEvent, SweepBatch, Wallet, WebhookConfig } from "@collector/core"
import { Schema } from "effect"

/**
 * The answers of the workload's writes as they are saved for replays: the fields a tenant reads
 * in the API's answer (IDs, addresses, amounts, statuses), presented as the handlers present them.
 */
export const WalletAnswer = Schema.Struct({ id: Schema.String, address: Schema.String, customId: Schema.String })

export const presentWallet = (wallet: Pick<Wallet, "id" | "address" | "customId">) => ({ id: wallet.id as string, address: wallet.address, customId: wallet.customId })

export const CollectionAnswer = Schema.Struct({ address: Schema.String, walletId: Schema.NullOr(Schema.String) })

export const presentCollection = (collection: CollectionSetting) => ({ address: collection.address, walletId: collection.walletId })

export const AutomationAnswer = Schema.Struct({
  enabled: Schema.Boolean,
  threshold: Schema.BigInt,
  intervalMinutes: Schema.Number,
  maxWalletTrxFee: Schema.BigInt,
  maxRentalCost: Schema.BigInt,
  rentalAllowed: Schema.Boolean
})

export const presentAutomation = (policy: AutomationPolicy) => ({
  enabled: policy.enabled,
  threshold: policy.threshold,
  intervalMinutes: policy.intervalMinutes,
  maxWalletTrxFee: policy.maxWalletTrxFee,
  maxRentalCost: policy.maxRentalCost,
  rentalAllowed: policy.rentalAllowed
})

export const WebhookAnswer = Schema.Struct({ url: Schema.String, enabled: Schema.Boolean })

export const presentWebhook = (webhook: WebhookConfig) => ({ url: webhook.url, enabled: webhook.enabled })

const SweepItemAnswer = Schema.Struct({
  walletId: Schema.String,
  taskId: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.String),
  destination: Schema.NullOr(Schema.String),
  requestedAmount: Schema.NullOr(Schema.BigInt),
  failure: Schema.NullOr(Schema.String)
})

export const SweepBatchAnswer = Schema.Struct({ items: Schema.Array(SweepItemAnswer), created: Schema.Number, failed: Schema.Number })

export const presentBatch = (batch: SweepBatch) => ({
  items: batch.items.map((item) =>
    item.ok
      ? {
        walletId: item.walletId as string,
        taskId: item.task.id as string,
        status: item.task.status as string,
        destination: item.task.destination,
        requestedAmount: item.task.requestedAmount,
        failure: null
      }
      : { walletId: item.walletId as string, taskId: null, status: null, destination: null, requestedAmount: null, failure: item.failure as string }
  ),
  created: batch.created,
  failed: batch.failed
})

export const RedeliveryAnswer = Schema.Struct({ id: Schema.String, status: Schema.String, round: Schema.Number })

export const presentRedelivery = (event: NotificationEvent) => ({ id: event.id as string, status: event.status as string, round: event.currentRound })
