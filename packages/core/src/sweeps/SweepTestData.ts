import type { WalletId } from "../kernel/Ids.js"
import { sweepOutcome } from "./SweepOutcome.js"
import type { SweepDraft } from "./SweepRepository.js"
import type { StoredTransaction, SweepTask, TerminalSweepStatus } from "./SweepTask.js"

/** Times of the sweep tests: `seconds` after 2026-03-01T00:00:00Z. */
export const sweepTime = (seconds: number) => new Date(Date.UTC(2026, 2, 1) + seconds * 1000)

/** A manual sweep of the wallet's whole balance, prepared within the hour; `over` changes any field. */
export const sweepDraftFor = (wallet: { readonly id: WalletId; readonly address: string }, over: Partial<SweepDraft> = {}): SweepDraft => ({
  walletId: wallet.id,
  address: wallet.address,
  mode: "all",
  requestedAmount: null,
  minimumAmount: null,
  destination: "TCollectionAddress",
  origin: "manual",
  maxWalletTrxFee: 15_000_000n,
  prepareBy: sweepTime(3600),
  ...over
})

/** A signed transaction as a task stores it, made up from its txid. */
export const storedTransaction = (txid: string): StoredTransaction => ({
  txid,
  rawDataHex: `0a02${txid.slice(0, 8)}`,
  signature: `ff${txid.slice(0, 16)}`,
  expiration: sweepTime(60),
  feeLimit: 30_000_000n
})

/** A terminal outcome of the task as the sweeper would write it. */
export const terminalOutcome = (task: SweepTask, status: TerminalSweepStatus, over: Partial<SweepTask> = {}) =>
  sweepOutcome({ ...task, ...over, status, updatedAt: over.updatedAt ?? sweepTime(500) })
