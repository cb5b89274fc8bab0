import type { SweepTask, TerminalSweepStatus } from "./SweepTask"

/** The 11-field body of `sweep.succeeded`, `sweep.failed` and `sweep.cancelled`, in wire order. */
export interface SweepResultBody {
  readonly event_id: string
  readonly event_type: `sweep.${TerminalSweepStatus}`
  readonly network: string
  readonly task_id: string
  readonly wallet_id: string
  readonly amount: string
  readonly destination: string
  readonly txid: string
  readonly status: TerminalSweepStatus
  readonly reason: string
  readonly actual_fee: string
}

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
