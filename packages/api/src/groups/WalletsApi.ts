import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authenticated } from "../Authenticated"
import { Ok } from "../Envelope"
import { Amount, CustomId, ObjectId, RequestId, strict, Timestamp } from "../Fields"

export const Network = Schema.Literal("main", "nile")

export const WalletIdentity = Schema.Struct({
  id: ObjectId,
  address: Schema.String,
  custom_id: Schema.String,
  chain: Schema.Literal("TRON"),
  created_at: Timestamp,
  network: Network
})

export const WalletItem = Schema.Struct({
  id: ObjectId,
  address: Schema.String,
  custom_id: Schema.String,
  chain: Schema.Literal("TRON"),
  network: Network,
  collection_status: Schema.Literal("idle", "collecting"),
  balance_usdt: Schema.NullOr(Amount),
  balance_trx: Schema.NullOr(Amount),
  balance_block: Amount,
  destination: Schema.String,
  collected_usdt: Amount,
  last_collected_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
})

export const CreateWalletRequest = strict({ custom_id: CustomId, request_id: RequestId })

export class WalletsApi extends HttpApiGroup.make("wallets")
  .add(
    HttpApiEndpoint.post("createWallet", "/open/v1/wallets")
      .setPayload(CreateWalletRequest)
      .addSuccess(Ok(WalletIdentity))
      .annotate(OpenApi.Summary, "Create a receiving wallet")
      .annotate(
        OpenApi.Description,
        "The service generates the key pair and never returns the private key. Idempotent by request_id: the same key and " +
          "parameters return the saved response; other parameters 409 IDEMPOTENCY_CONFLICT; a duplicate custom_id 409 BUSINESS_CONFLICT (also saved)."
      )
  )
  .add(
    HttpApiEndpoint.get("getWallet", "/open/v1/wallets/:id")
      .setPath(Schema.Struct({ id: ObjectId }))
      .addSuccess(Ok(WalletItem))
      .annotate(OpenApi.Summary, "Wallet detail")
      .annotate(OpenApi.Description, "Current stored state of one wallet of the calling tenant and network; otherwise 404 RESOURCE_NOT_FOUND.")
  )
  .middleware(Authenticated)
{}
