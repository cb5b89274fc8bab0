import type { TenantScope } from "../tenants/Scope.js"
import type { SweepDraft } from "./SweepRepository.js"
import type { SweepTask, SweepTaskId } from "./SweepTask.js"

/**
 * A task as its draft creates it: queued for preparation and due at once, with nothing decided
 * yet (no amount, fee source, rental or transaction) and version 0. PostgreSQL's column defaults
 * say the same.
 */
export const queuedTask = (id: SweepTaskId, scope: TenantScope, draft: SweepDraft, at: Date): SweepTask => ({
  id,
  tenantId: scope.tenantId,
  network: scope.network,
  walletId: draft.walletId,
  address: draft.address,
  mode: draft.mode,
  requestedAmount: draft.requestedAmount,
  minimumAmount: draft.minimumAmount,
  amount: 0n,
  destination: draft.destination,
  origin: draft.origin,
  status: "pending",
  stage: "queued",
  reason: "",
  transaction: null,
  actualFee: 0n,
  actualBandwidthFee: null,
  feeWarning: null,
  energyPath: null,
  feeReason: null,
  feeSource: null,
  preparedEnergy: null,
  estimatedWalletTrxFee: null,
  maxWalletTrxFee: draft.maxWalletTrxFee,
  rental: null,
  createdAt: at,
  updatedAt: at,
  nextStepAt: at,
  prepareBy: draft.prepareBy,
  version: 0
})
