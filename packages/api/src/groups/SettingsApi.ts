import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { TronAddress } from "@collector/tron"
import { Schema } from "effect"
import { Authenticated } from "../Authenticated.js"
import { Ok } from "../Envelope.js"
import { Amount, ObjectId, RequestId, strict, Timestamp } from "../Fields.js"
import { Network } from "./WalletsApi.js"

export const Addresses = Schema.Struct({
  network: Network,
  collection_address: Schema.String,
  collection_wallet_id: Schema.NullOr(ObjectId),
  updated_at: Schema.NullOr(Timestamp)
})

export const SetCollectionRequest = strict({ address: TronAddress.TronAddress, request_id: RequestId })

// Bounded like the wallet list's amounts: a longer integer would not even fit the database column.
const maxAmount = 2n ** 256n - 1n
const SettingAmount = Amount.pipe(Schema.filter((s) => BigInt(s) <= maxAmount || "must be at most 2^256-1"))
const PositiveAmount = SettingAmount.pipe(Schema.filter((s) => s !== "0" || "must be greater than 0"))
const IntervalMinutes = Schema.Int.pipe(Schema.between(5, 10_080, { message: () => "interval_minutes must be an integer from 5 to 10080" }))

export const Automation = Schema.Struct({
  network: Network,
  enabled: Schema.Boolean,
  threshold: Amount,
  interval_minutes: Schema.Int,
  max_wallet_trx_fee: Amount,
  max_rental_cost: Amount,
  rental_allowed: Schema.Boolean,
  updated_at: Schema.NullOr(Timestamp)
})

export const SetAutomationRequest = strict({
  enabled: Schema.Boolean,
  threshold: PositiveAmount,
  interval_minutes: IntervalMinutes,
  max_wallet_trx_fee: SettingAmount,
  max_rental_cost: SettingAmount,
  rental_allowed: Schema.Boolean,
  request_id: RequestId
})

export const Webhook = Schema.Struct({ url: Schema.String, enabled: Schema.Boolean })

export const SetWebhookRequest = strict({ url: Schema.String, enabled: Schema.Boolean, request_id: RequestId })

export class SettingsApi extends HttpApiGroup.make("settings")
  .add(
    HttpApiEndpoint.get("getAddresses", "/open/v1/settings/addresses")
      .addSuccess(Ok(Addresses))
      .annotate(OpenApi.Summary, "Query account addresses")
      .annotate(OpenApi.Description, "The collection address of this tenant and network (empty while unbound); collection_wallet_id when it is one of the tenant's wallets.")
  )
  .add(
    HttpApiEndpoint.post("setCollectionAddress", "/open/v1/settings/addresses/collection")
      .setPayload(SetCollectionRequest)
      .addSuccess(Ok(Addresses))
      .annotate(OpenApi.Summary, "Set the USDT collection address")
      .annotate(OpenApi.Description, "A TRON Base58Check address: external, or one of the tenant's wallets (which then becomes unavailable for sweeps). Idempotent by request_id.")
  )
  .add(
    HttpApiEndpoint.get("getAutomation", "/open/v1/settings/automation")
      .addSuccess(Ok(Automation))
      .annotate(OpenApi.Summary, "Query automatic collection settings")
      .annotate(OpenApi.Description, "Defaults until first set: disabled, threshold 100 USDT, every 60 minutes, wallet TRX fee cap 15 TRX, rental cost cap 21 TRX, rental not allowed. The caps let the costliest ordinary mainnet sweep through (to an address holding no USDT: 14.33 TRX burnt, or up to 20.13 TRX rented at 130 SUN per energy with a 1.5 TRX activation).")
  )
  .add(
    HttpApiEndpoint.post("setAutomation", "/open/v1/settings/automation")
      .setPayload(SetAutomationRequest)
      .addSuccess(Ok(Automation))
      .annotate(OpenApi.Summary, "Set automatic collection")
      .annotate(
        OpenApi.Description,
        "The whole policy at once. threshold in USDT smallest units (> 0); interval_minutes 5 to 10080; max_wallet_trx_fee caps the " +
          "TRX (SUN) a wallet may burn for energy in one sweep, manual sweeps included; max_rental_cost caps what one sweep may pay an " +
          "energy provider (SUN, activation included); rental_allowed permits renting. Idempotent by request_id."
      )
  )
  .add(
    HttpApiEndpoint.get("getWebhook", "/open/v1/settings/webhook")
      .addSuccess(Ok(Webhook))
      .annotate(OpenApi.Summary, "Query callback configuration")
  )
  .add(
    HttpApiEndpoint.post("setWebhook", "/open/v1/settings/webhook")
      .setPayload(SetWebhookRequest)
      .addSuccess(Ok(Webhook))
      .annotate(OpenApi.Summary, "Set callback configuration")
      .annotate(
        OpenApi.Description,
        "url: https only, port 443, no user credentials, no fragment, at most 2048 characters, every DNS answer a public unicast " +
          "address (checked at save and at every delivery); may be empty only when disabled (else 400 `webhook URL required when " +
          "enabled`). The operator setting WEBHOOK_ALLOW_PRIVATE_TARGETS=true (off by default) lifts two of these rules: any IP " +
          "address (private, loopback, ...) and any port are then accepted; https and the other rules still apply. While it is off, " +
          "a URL refused for a non-public address or another port gets a 400 whose message ends `(an operator can allow private " +
          "targets and other ports with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)`. Idempotent by request_id; a refused URL is not saved " +
          "under it."
      )
  )
  .middleware(Authenticated)
{}
