import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Deposits } from "@collector/core"
import { Schema } from "effect"
import { Authenticated } from "../Authenticated.js"
import { Ok } from "../Envelope.js"
import { ObjectId, strict } from "../Fields.js"
import { Network } from "./WalletsApi.js"

export const DepositListParams = strict({
  page: Schema.optional(Schema.String),
  page_size: Schema.optional(Schema.String),
  address: Schema.optional(Schema.String)
})

export const DepositList = Schema.Struct({
  network: Network,
  items: Schema.Array(Deposits.DepositRecord),
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
          "otherwise 400 `invalid request: invalid pagination` (also for a page starting more than 100000 rows deep: (page - 1) * page_size); address: case-insensitive contains match on the receiving wallet " +
          "address only (never source or contract), at most 100 UTF-8 bytes, empty ignored, `%` matching any run and `_` one " +
          "character. Any other or repeated query key is 400. total counts every match; a page past the last has items [] with the " +
          "true total."
      )
  )
  .add(
    HttpApiEndpoint.get("getDeposit", "/open/v1/deposits/:id")
      .setPath(Schema.Struct({ id: ObjectId }))
      .addSuccess(Ok(Deposits.DepositRecord))
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
