import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authenticated } from "../Authenticated.js"
import { Ok } from "../Envelope.js"
import { Amount, CustomId, ObjectId, RequestId, strict, Timestamp } from "../Fields.js"

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

const optionalText = Schema.optional(Schema.String)

/** The list's filters; the same names and string forms in the query and in a selection body. */
const filterFields = {
  address: optionalText,
  usdt_min: optionalText,
  usdt_max: optionalText,
  trx_min: optionalText,
  trx_max: optionalText,
  hide_zero: optionalText,
  hide_zero_trx: optionalText,
  last_collected_from: optionalText,
  last_collected_to: optionalText
}

export const WalletListParams = strict({
  ...filterFields,
  page: optionalText,
  page_size: optionalText,
  sort: optionalText,
  order: optionalText,
  selected_wallet_ids: optionalText
})

export const WalletList = Schema.Struct({
  network: Network,
  items: Schema.Array(WalletItem),
  total: Schema.Int,
  page: Schema.Int,
  page_size: Schema.Int,
  unavailable_wallet_ids: Schema.Array(ObjectId)
})

export const SelectionRequest = strict({ filters: Schema.optional(strict(filterFields)) })

export const Selection = Schema.Struct({
  network: Network,
  wallet_ids: Schema.Array(ObjectId),
  total: Schema.Int,
  unavailable_wallet_ids: Schema.Array(ObjectId)
})

export const PreviewRequest = strict({
  wallet_ids: Schema.Array(ObjectId).pipe(Schema.minItems(1), Schema.maxItems(1000))
})

export const PreviewItem = Schema.Struct({
  id: ObjectId,
  address: Schema.String,
  custom_id: Schema.String,
  collection_status: Schema.Literal("idle", "collecting"),
  balance_usdt: Schema.NullOr(Amount),
  balance_trx: Schema.NullOr(Amount),
  balance_block: Amount,
  available: Schema.Boolean,
  unavailable_reason: Schema.Literal("", "collecting", "collection_address")
})

export const Preview = Schema.Struct({
  network: Network,
  items: Schema.Array(PreviewItem),
  not_found_ids: Schema.Array(ObjectId)
})

export class WalletsApi extends HttpApiGroup.make("wallets")
  .add(
    HttpApiEndpoint.post("createWallet", "/open/v1/wallets")
      .setPayload(CreateWalletRequest)
      .addSuccess(Ok(WalletIdentity))
      .annotate(OpenApi.Summary, "Create a receiving wallet")
      .annotate(
        OpenApi.Description,
        "The service generates the key pair and never returns the private key. Idempotent by request_id: the same key and " +
          "parameters return the saved response; other parameters 409 IDEMPOTENCY_CONFLICT; a duplicate custom_id 409 BUSINESS_CONFLICT (also saved). " +
          "A tenant holding the operator's maximum of wallets over all its networks gets 409 BUSINESS_CONFLICT (not saved: the same " +
          "request_id creates the wallet once there is room)."
      )
  )
  .add(
    HttpApiEndpoint.get("listWallets", "/open/v1/wallets")
      .setUrlParams(WalletListParams)
      .addSuccess(Ok(WalletList))
      .annotate(OpenApi.Summary, "Wallet list")
      .annotate(
        OpenApi.Description,
        "Filters, bounds and sorting as the contract's wallet list rules say: every parameter optional, empty meaning absent; a minimum " +
          "above its maximum gives an empty result; ties sort by wallet ID descending; null balances and never-collected wallets sort " +
          "last. A bound or hide_zero never matches a wallet whose first balance sync is pending. unavailable_wallet_ids covers the page " +
          "and selected_wallet_ids: wallets with an unfinished sweep task or serving as the collection address. A page may start at most " +
          "100000 rows deep ((page - 1) * page_size); deeper is 400 `invalid request: invalid pagination: ...`: narrow the filters."
      )
  )
  .add(
    HttpApiEndpoint.post("selectWallets", "/open/v1/wallets/selection")
      .setPayload(SelectionRequest)
      .addSuccess(Ok(Selection))
      .annotate(OpenApi.Summary, "Cross-page wallet selection")
      .annotate(
        OpenApi.Description,
        "Read-only: every wallet ID matching `filters` (the list's filter names and string forms), ID ascending, with the unavailable ones. " +
          "At most 1000 IDs, as many as a sweep takes: a selection matching more is 400 " +
          "`invalid request: more than 1000 wallets match the filters; narrow them`."
      )
  )
  .add(
    HttpApiEndpoint.post("previewWallets", "/open/v1/wallets/preview")
      .setPayload(PreviewRequest)
      .addSuccess(Ok(Preview))
      .annotate(OpenApi.Summary, "Batch wallet preview")
      .annotate(OpenApi.Description, "Read-only: balances and availability of up to 1000 wallets, ID ascending; unknown IDs are listed in not_found_ids.")
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
