import { Schema } from "effect"
import { Amount } from "../kernel/Amount.js"
import { ConfirmationRule } from "../settings/ConfirmationRule.js"
import { Network } from "../kernel/Network.js"
import { ObjectId } from "../kernel/ObjectId.js"
import type { Deposit } from "./Deposit.js"

/** UTC with exactly six fractional digits and `Z`, as the contract requires for deposit times. */
export const microsecondTime = (date: Date): string => date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z")

const DepositTime = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  Schema.annotations({ description: "UTC RFC 3339 time with exactly six fractional digits, ending in Z." })
)

/**
 * The 24-field deposit object of the contract: each deposit list item, the detail, and the
 * plaintext of the deposit notifications. One schema for the server's responses and the SDK's
 * receiver, so both read the object the way `depositRecord` writes it. The members are declared
 * in the order the server writes them, so the same id and revision always give the same bytes.
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
  confirmation_type: ConfirmationRule,
  confirmations: Schema.NullOr(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))),
  block_hash: Schema.NullOr(Schema.String)
}).annotations({ identifier: "DepositRecord", description: "The 24-field deposit record; every member always present." })
export type DepositRecord = typeof DepositRecord.Type

/** Written member by member in the schema's order: the notification payload is this object's JSON text. */
export const depositRecord = (deposit: Deposit): DepositRecord => ({
  id: deposit.id,
  event_id: deposit.eventId,
  event_type: deposit.status === "confirmed" ? "deposit.confirmed" : "deposit.reverted",
  status: deposit.status,
  wallet_id: deposit.walletId,
  custom_id: deposit.customId,
  chain: "TRON",
  network: deposit.network,
  asset: "USDT",
  token_standard: "TRC20",
  decimals: 6,
  address: deposit.address,
  source: deposit.source,
  contract: deposit.contract,
  amount: deposit.amount.toString(),
  txid: deposit.txid,
  log_index: deposit.logIndex,
  block_number: deposit.blockNumber.toString(),
  block_time: microsecondTime(deposit.blockTime),
  created_at: microsecondTime(deposit.createdAt),
  revision: deposit.revision,
  confirmation_type: deposit.confirmationType,
  confirmations: deposit.confirmations,
  block_hash: deposit.blockHash
})
