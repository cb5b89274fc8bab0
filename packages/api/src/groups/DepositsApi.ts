import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authenticated } from "../Authenticated"
import { Ok } from "../Envelope"
import { Amount, ObjectId, strict } from "../Fields"
import { Network } from "./WalletsApi"

const DepositTime = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  Schema.annotations({ description: "UTC RFC 3339 time with exactly six fractional digits, ending in Z." })
)

/**
 * The unified 24-field deposit object: each list item, the detail, and the plaintext of the
 * deposit notifications. The members are declared in the order the server writes them, so the
 * same id and revision always give the same bytes.
 */
export const DepositRecord = Schema.Struct({
  id: ObjectId,
  event_id: ObjectId,
  event_type: Schema.Literal("deposit.confirmed", "deposit.reverted"),
  status: Schema.Literal("confirmed", "reverted"),
  wallet_id: ObjectId,
  custom_id: Schema.String,
  chain: Schema.Literal("TRON"),
  network: Network,
  asset: Schema.Literal("USDT"),
  token_standard: Schema.Literal("TRC20"),
  decimals: Schema.Literal(6).annotations({ jsonSchema: { type: "integer", enum: [6] } }),
  address: Schema.String,
  source: Schema.String,
  contract: Schema.String,
  amount: Amount,
  txid: Schema.String,
  log_index: Schema.Int.pipe(Schema.nonNegative()),
  block_number: Amount.annotations({ description: "Block height as a decimal string." }),
  block_time: DepositTime,
  created_at: DepositTime,
  revision: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)),
  confirmation_type: Schema.Literal("block_1", "block_3", "block_6", "block_12", "solidified"),
  confirmations: Schema.NullOr(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))),
  block_hash: Schema.NullOr(Schema.String)
}).annotations({ identifier: "DepositRecord", description: "The 24-field deposit record; every member always present." })

export const DepositListParams = strict({
  page: Schema.optional(Schema.String),
  page_size: Schema.optional(Schema.String),
  address: Schema.optional(Schema.String)
})

export const DepositList = Schema.Struct({
  network: Network,
  items: Schema.Array(DepositRecord),
  total: Schema.Int,
  page: Schema.Int,
  page_size: Schema.Int
})

export class DepositsApi extends HttpApiGroup.make("deposits")
  .add(
    HttpApiEndpoint.get("listDeposits", "/open/v1/deposits")
      .setUrlParams(DepositListParams)
      .addSuccess(Ok(DepositList))
      .annotate(OpenApi.Summary, "Deposit list")
      .annotate(
        OpenApi.Description,
        "Deposit records of the calling tenant and network, deposit ID descending, each in its current revision (confirmed and " +
          "reverted alike). A deposit is a USDT transfer into one of the tenant's wallets by anyone but the service sweeping " +
          "for this tenant: a sweep into a collection address that is one of its wallets is no deposit. Query: page (>= 1, default 1) and page_size (1 to 100, default 20), absent or empty meaning the default, " +
          "otherwise 400 `invalid request: invalid pagination`; address: case-insensitive contains match on the receiving wallet " +
          "address only (never source or contract), at most 100 UTF-8 bytes, empty ignored, `%` matching any run and `_` one " +
          "character. Any other or repeated query key is 400. total counts every match; a page past the last has items [] with the " +
          "true total."
      )
  )
  .add(
    HttpApiEndpoint.get("getDeposit", "/open/v1/deposits/:id")
      .setPath(Schema.Struct({ id: ObjectId }))
      .addSuccess(Ok(DepositRecord))
      .annotate(OpenApi.Summary, "Deposit detail")
      .annotate(
        OpenApi.Description,
        "The current revision of one deposit record: the same 24 members (network among them, so the detail's network is that " +
          "member, not a 25th) and the same bytes as its list item and, for the same revision, its notification payload. The path " +
          "ID decides the object; any query, even a bare `?`, is 400. An ID that is not a canonical positive int64 is 400; a " +
          "record that does not exist or belongs to another tenant or network is 404 RESOURCE_NOT_FOUND."
      )
  )
  .middleware(Authenticated)
{}
