import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authenticated } from "../Authenticated.js"
import { Ok } from "../Envelope.js"
import { Amount, ObjectId, RequestId, strict, Timestamp } from "../Fields.js"
import { Network } from "./WalletsApi.js"
import { WireDeliveryStatus } from "./WebhooksApi.js"

const maxAmount = 2n ** 256n - 1n

const Sun = Amount.annotations({ description: "SUN as a decimal string (1 TRX = 1000000 SUN)." })
const Energy = Amount.annotations({ description: "Energy units as a decimal string." })
const Bytes = Amount.annotations({ description: "Bandwidth bytes as a decimal string." })

export const SweepStatus = Schema.Literal("pending", "ready", "signed", "broadcast", "unknown", "succeeded", "failed", "cancelled")
export const SweepMode = Schema.Literal("all", "fixed")
export const FeeSource = Schema.Literal("resources", "wallet_trx", "rental")
export const SweepItemErrorCode = Schema.Literal("WALLET_NOT_FOUND", "WALLET_COLLECTING", "WALLET_IS_COLLECTION_ADDRESS", "COLLECTION_ADDRESS_NOT_SET")

/** A fixed amount: a positive integer string without leading zeros, at most 2^256-1. */
export const SweepAmount = Schema.String.pipe(
  Schema.filter((s) =>
    (/^[1-9][0-9]{0,77}$/.test(s) && BigInt(s) <= maxAmount) ||
    "amount must be a positive integer string without leading zeros, at most 2^256-1"),
  Schema.annotations({
    jsonSchema: {
      type: "string",
      pattern: "^[1-9][0-9]{0,77}$",
      description: "Positive integer string in the smallest unit (6 decimals), no leading zeros, at most 2^256-1."
    }
  })
)

const walletIds = (max: number) =>
  Schema.Array(ObjectId).pipe(
    Schema.minItems(1),
    Schema.maxItems(max),
    Schema.filter((ids) => new Set(ids).size === ids.length || "wallet_ids must not repeat an ID", { jsonSchema: { uniqueItems: true } })
  )

/** The summary of the task's notification event (its terminal sweep.* event). */
export const SweepWebhook = Schema.Struct({
  id: ObjectId.annotations({ description: "Event ID; equals the task ID." }),
  event_type: Schema.Literal("sweep.succeeded", "sweep.failed", "sweep.cancelled"),
  status: WireDeliveryStatus,
  attempts: Schema.Int.pipe(Schema.between(0, 20)),
  current_round: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)),
  next_attempt: Schema.NullOr(Timestamp),
  deadline_at: Timestamp,
  last_error: Schema.String,
  created_at: Timestamp,
  delivered_at: Schema.NullOr(Timestamp),
  network: Network
}).annotations({ identifier: "SweepWebhook", description: "The 11-member summary of the linked notification event." })

export const SweepEnergyRental = Schema.Struct({
  order_id: Schema.String.annotations({ description: "The service's own order number, kept for verification." }),
  quantity: Energy,
  estimated_cost: Sun,
  paid_cost: Sun,
  activation_cost: Sun,
  state: Schema.Literal("ordering", "unknown", "pending", "delivered", "under_delivered", "expired", "failed"),
  expires_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "SweepEnergyRental", description: "The task's one rental order; costs in SUN, accounted apart from actual_fee." })

/**
 * How a sweep's energy is paid, in the waterfall's order: the wallet's own energy, energy
 * delegated from the operator's own stake, a provider's rental, or the wallet's TRX burned.
 */
export const EnergyPath = Schema.Literal("own", "delegated", "rented", "burn").annotations({
  identifier: "SweepEnergyPath",
  description: "own: the wallet's own energy; delegated: lent from the operator's staked TRX and reclaimed after the sweep; rented: a provider's rental; burn: the wallet's TRX burned within max_wallet_trx_fee."
})

/** The 26-member sweep detail object (the contract table): create items, list items and the detail. */
export const SweepTask = Schema.Struct({
  network: Network,
  id: ObjectId,
  wallet_id: ObjectId,
  address: Schema.String,
  kind: Schema.Literal("sweep"),
  sweep_mode: SweepMode,
  requested_amount: Schema.NullOr(Amount).annotations({ description: "null for all; the requested positive amount for fixed." }),
  amount: Amount.annotations({ description: "Amount fixed at preparation; 0 before." }),
  destination: Schema.String.annotations({ description: "Collection address stored with the task at creation." }),
  status: SweepStatus,
  reason: Schema.String.annotations({ description: "Why the task failed, was cancelled or waits; empty string if none." }),
  txid: Schema.String.annotations({ description: "Stored transaction hash; empty string until signed." }),
  actual_fee: Sun.annotations({ description: "Settled on-chain fee in SUN; 0 until settled." }),
  created_at: Timestamp,
  updated_at: Timestamp,
  webhook: Schema.NullOr(SweepWebhook),
  preparation_stage: Schema.Literal("queued", "waiting_bandwidth", "renting", "waiting_energy", "ready").annotations({
    description: "The stored stage while status is pending; ready in every other status."
  }),
  energy_rental: Schema.NullOr(SweepEnergyRental),
  fee_source: Schema.NullOr(FeeSource),
  prepared_energy: Schema.NullOr(Energy),
  estimated_wallet_trx_fee: Schema.NullOr(Sun),
  max_wallet_trx_fee: Schema.NullOr(Sun),
  actual_bandwidth_fee: Schema.NullOr(Sun),
  fee_warning: Schema.NullOr(Schema.String),
  energy_path: Schema.NullOr(EnergyPath),
  fee_reason: Schema.NullOr(Schema.String).annotations({ description: "Why energy_path was chosen; null before preparation." })
}).annotations({ identifier: "SweepTask", description: "The sweep detail object; all 26 members always present." })

export const CreateSweepRequest = strict({
  request_id: RequestId,
  wallet_ids: walletIds(1000),
  sweep_mode: SweepMode,
  amount: Schema.optional(SweepAmount)
})

export const SweepCreateItem = Schema.Struct({
  wallet_id: ObjectId,
  ok: Schema.Boolean,
  task: Schema.NullOr(SweepTask),
  error: Schema.NullOr(Schema.Struct({ error_code: SweepItemErrorCode, message: Schema.String }))
})

export const SweepCreateResult = Schema.Struct({
  network: Network,
  items: Schema.Array(SweepCreateItem),
  created: Schema.Int,
  failed: Schema.Int
})

export const SweepListParams = strict({
  page: Schema.optional(Schema.String),
  page_size: Schema.optional(Schema.String),
  status: Schema.optional(Schema.String),
  wallet_id: Schema.optional(Schema.String),
  txid: Schema.optional(Schema.String)
})

export const SweepList = Schema.Struct({
  network: Network,
  items: Schema.Array(SweepTask),
  total: Schema.Int,
  page: Schema.Int,
  page_size: Schema.Int
})

export const EstimateSweepRequest = strict({
  wallet_ids: walletIds(100),
  sweep_mode: SweepMode,
  amount: Schema.optional(SweepAmount)
})

export const SweepEstimateItem = Schema.Struct({
  wallet_id: ObjectId,
  address: Schema.String,
  amount: Amount,
  sweepable: Schema.Boolean,
  reason: Schema.String,
  fee_source: Schema.NullOr(FeeSource),
  energy_estimate: Energy,
  prepared_energy: Energy,
  energy_available: Energy,
  estimated_wallet_trx_fee: Sun,
  estimated_rental_cost: Sun,
  estimated_activation_cost: Sun,
  bandwidth_needed: Bytes,
  bandwidth_available: Bytes,
  waits_for_bandwidth: Schema.Boolean,
  energy_path: Schema.NullOr(EnergyPath),
  fee_reason: Schema.String.annotations({ description: "Why energy_path would be chosen; empty when no plan could be made." })
}).annotations({ identifier: "SweepEstimateItem" })

export const SweepEstimate = Schema.Struct({
  network: Network,
  items: Schema.Array(SweepEstimateItem),
  not_found_ids: Schema.Array(ObjectId),
  total: Schema.Struct({
    amount: Amount,
    prepared_energy: Energy,
    estimated_wallet_trx_fee: Sun,
    estimated_rental_cost: Sun,
    estimated_activation_cost: Sun
  })
})

const modeRule = "sweep_mode `all` sweeps the wallet's whole USDT balance at preparation and takes no amount (present: 400 `invalid request: " +
  "amount must be absent when sweep_mode is all`); `fixed` requires amount (absent: 400 `invalid request: amount is required when " +
  "sweep_mode is fixed`), a positive integer string in the smallest unit without leading zeros, at most 2^256-1 (otherwise 400)."

const idsRule = (max: number) =>
  `wallet_ids: 1 to ${max} canonical wallet IDs (positive int64 strings, no leading zeros or sign), none repeated; otherwise 400.`

export class SweepsApi extends HttpApiGroup.make("sweeps")
  .add(
    HttpApiEndpoint.post("createSweeps", "/open/v1/sweeps")
      .setPayload(CreateSweepRequest)
      .addSuccess(Ok(SweepCreateResult))
      .annotate(OpenApi.Summary, "Create sweep tasks")
      .annotate(
        OpenApi.Description,
        "One sweep task per wallet, sending USDT to the collection address set now (stored with the task). " + idsRule(1000) + " " +
          modeRule + " Unknown fields are 400. Each wallet gets its own item, in request order: ok true with task (the sweep " +
          "detail object as created: status pending, stage queued) and error null, or ok false with task null and error " +
          "{error_code, message}: WALLET_NOT_FOUND (no such wallet of this tenant and network), COLLECTION_ADDRESS_NOT_SET (no " +
          "collection address for this network), WALLET_IS_COLLECTION_ADDRESS (the wallet is the collection address), " +
          "WALLET_COLLECTING (the wallet already has an unfinished task, also one created concurrently by another request; a " +
          "wallet has at most one unfinished task), checked in that order. created and failed count the items. A per-item " +
          "failure is still HTTP 200. Idempotent by request_id: the whole batch response, per-item failures included, is the " +
          "saved result, replayed byte for byte to the same request_id with the same parameters (a snapshot of creation time; " +
          "later state comes from the detail); other parameters are 409 IDEMPOTENCY_CONFLICT. Retrying failed items after a " +
          "correction needs a new request_id. The fee cap max_wallet_trx_fee of the automation settings is snapshotted into " +
          "each task; a task not prepared within the preparation limit (24 h by default) is cancelled."
      )
  )
  .add(
    HttpApiEndpoint.get("listSweeps", "/open/v1/sweeps")
      .setUrlParams(SweepListParams)
      .addSuccess(Ok(SweepList))
      .annotate(OpenApi.Summary, "Sweep list")
      .annotate(
        OpenApi.Description,
        "Sweep tasks of the calling tenant and network, task ID descending; each item is the sweep detail object. Filters, absent " +
          "or empty meaning none: status (pending, ready, signed, broadcast, unknown, succeeded, failed or cancelled, else 400 " +
          "`invalid request: status must be one of ...`), wallet_id (a canonical wallet ID, else 400 `invalid request: wallet_id " +
          "must be a positive integer ID`), txid (64 lowercase hexadecimal characters, exact match, else 400 `invalid request: " +
          "txid must be 64 lowercase hexadecimal characters`). page (>= 1, default 1) and page_size (1 to 100, default 20), absent " +
          "or empty meaning the default, otherwise 400 `invalid request: invalid pagination` (also for a page starting more than 100000 rows deep: (page - 1) * page_size). Any other or repeated query key is " +
          "400. total counts every match; a page past the last has items [] with the true total."
      )
  )
  .add(
    HttpApiEndpoint.get("getSweep", "/open/v1/sweeps/:id")
      .setPath(Schema.Struct({ id: ObjectId }))
      .addSuccess(Ok(SweepTask))
      .annotate(OpenApi.Summary, "Sweep detail")
      .annotate(
        OpenApi.Description,
        "The current stored state of one sweep task (never the create operation's saved response). All 26 members of the " +
          "contract are always present; null and empty values are values. preparation_stage is the stored stage (queued, waiting_bandwidth, renting, " +
          "waiting_energy) while status is pending, and ready in every other status. webhook is the summary of the task's " +
          "sweep.* notification event once the task has ended (its ID equals the task ID), null before. Any query, even a bare " +
          "`?`, is 400. An ID that is not a canonical positive int64 is 400; a task that does not exist or belongs to another " +
          "tenant or network is 404 RESOURCE_NOT_FOUND."
      )
  )
  .add(
    HttpApiEndpoint.post("estimateSweeps", "/open/v1/sweeps/estimate")
      .setPayload(EstimateSweepRequest)
      .addSuccess(Ok(SweepEstimate))
      .annotate(OpenApi.Summary, "Estimate sweep fees")
      .annotate(
        OpenApi.Description,
        "Read-only (no request_id; it is an unknown field here): what sweeping each wallet to the collection address would need " +
          "and cost now, read from the network's node at the solidified block and the energy provider. " + idsRule(100) + " " +
          modeRule + " Items follow the request order; IDs that are not wallets of this tenant and network are listed in " +
          "not_found_ids, ascending. Each estimate spends its tenant's node budget on this network (an existing wallet counts 6 node " +
          "requests, the estimate 1 more, refilled over a minute); past it 429 RATE_LIMITED with Retry-After and the node is not asked. " +
          "amount: the on-chain USDT balance for all, the requested amount for fixed. energy_estimate: " +
          "the node's estimate of the transfer; prepared_energy: it plus 10%; energy_available: the wallet's own energy left. " +
          "fee_source follows the contract's order: resources (the wallet's own energy covers prepared_energy), wallet_trx (the " +
          "wallet's TRX pays the whole shortfall at the current energy price, within max_wallet_trx_fee of the automation " +
          "settings: estimated_wallet_trx_fee), rental (rental_allowed, the provider's quote for the shortfall, at least its " +
          "minimum order, and the activation of a wallet not yet on chain: estimated_rental_cost and estimated_activation_cost, " +
          "whose sum must not exceed max_rental_cost); null when no plan exists. bandwidth_needed is 345 bytes; " +
          "bandwidth_available is the wallet's free plus staked bandwidth left (for a wallet not yet activated, the day's free " +
          "bandwidth it gets on activation); waits_for_bandwidth when it is short: the task would wait, it is still sweepable. " +
          "sweepable is false, with every reason in reason joined by `; `, when: no collection address is set, the wallet is the " +
          "collection address or already has an unfinished task, the wallet holds no USDT, a fixed amount is above the balance " +
          "(the fee is then estimated for the balance), the node refuses to estimate the transfer, no fee source can pay, or the " +
          "rental is refused or above max_rental_cost. total sums the sweepable items only. All amounts, energy, bytes and SUN " +
          "are decimal strings. A node that does not answer is 500 INTERNAL_ERROR `estimate unavailable: ...`."
      )
  )
  .middleware(Authenticated)
{}
