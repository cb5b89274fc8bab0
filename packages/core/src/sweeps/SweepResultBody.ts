import { Schema } from "effect"
import { Amount } from "../kernel/Amount.js"
import { Network } from "../kernel/Network.js"
import { ObjectId } from "../kernel/ObjectId.js"
import type { SweepTask, TerminalSweepStatus } from "./SweepTask.js"

/**
 * The 11-field body of `sweep.succeeded`, `sweep.failed` and `sweep.cancelled`, in wire order.
 * One schema for the server that writes it and the SDK's receiver that reads it.
 */
export const SweepResultBody = Schema.Struct({
  event_id: ObjectId,
  event_type: Schema.Literal("sweep.succeeded", "sweep.failed", "sweep.cancelled"),
  network: Network,
  task_id: ObjectId,
  wallet_id: ObjectId,
  amount: Amount,
  destination: Schema.String,
  txid: Schema.String,
  status: Schema.Literal("succeeded", "failed", "cancelled"),
  reason: Schema.String,
  actual_fee: Amount
})
export type SweepResultBody = typeof SweepResultBody.Type

/** Written member by member in the schema's order: the event payload is this object's JSON text. */
export const sweepResultBody = (task: SweepTask & { readonly status: TerminalSweepStatus }): SweepResultBody => ({
  event_id: task.id,
  event_type: `sweep.${task.status}`,
  network: task.network,
  task_id: task.id,
  wallet_id: task.walletId,
  amount: task.amount.toString(),
  destination: task.destination,
  txid: task.transaction?.txid ?? "",
  status: task.status,
  reason: task.reason,
  actual_fee: task.actualFee.toString()
})
