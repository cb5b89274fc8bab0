import { Effect } from "effect"
import type { ChainService } from "../../chain/Chain.js"
import type { TenantId, WalletId } from "../../kernel/Ids.js"
import type { SweepTask, SweepTaskId } from "../SweepTask.js"

/**
 * A task of 5 USDT prepared to be paid by the wallet's own energy (70,000 prepared), as of `at`,
 * for unit tests of one step; `changes` sets what the step under test reads.
 */
export const preparedTask = (at: Date, changes: Partial<SweepTask> = {}): SweepTask => ({
  id: "7" as SweepTaskId,
  tenantId: "1" as TenantId,
  network: "nile",
  walletId: "3" as WalletId,
  address: "TWalletAddressxxxxxxxxxxxxxxxxxxxx",
  mode: "all",
  requestedAmount: null,
  minimumAmount: null,
  amount: 5_000_000n,
  destination: "TCollectorAddressxxxxxxxxxxxxxxxxx",
  origin: "manual",
  status: "ready",
  stage: "ready",
  reason: "",
  transaction: null,
  actualFee: 0n,
  actualBandwidthFee: null,
  feeWarning: null,
  energyPath: null,
  feeReason: null,
  feeSource: "resources",
  preparedEnergy: 70_000n,
  estimatedWalletTrxFee: 0n,
  maxWalletTrxFee: 0n,
  rental: null,
  createdAt: at,
  updatedAt: at,
  nextStepAt: at,
  prepareBy: new Date(at.getTime() + 3_600_000),
  version: 3,
  ...changes
})

/**
 * A chain whose every call fails the test as one the step under test must not make; override the
 * ones it may. The freeze-list read answers "not frozen" unless overridden: it changes nothing on
 * the chain, and every preparation makes it.
 */
export const chainUnusedBy = (step: string, calls: Partial<ChainService> = {}): ChainService => {
  const unused = Effect.dieMessage(`not used by ${step}`)
  return {
    headBlock: unused,
    solidifiedBlock: unused,
    blockTransfers: () => unused,
    account: () => unused,
    balances: () => unused,
    usdtBalance: () => unused,
    trxBalance: () => unused,
    resources: () => unused,
    parameters: unused,
    isBlackListed: () => Effect.succeed(false),
    estimateTransferEnergy: () => unused,
    buildUsdtTransfer: () => unused,
    broadcast: () => unused,
    receipt: () => unused,
    stakeTotals: () => unused,
    energyStake: () => unused,
    delegatableEnergyStake: () => unused,
    lentEnergyStake: () => unused,
    buildEnergyLoan: () => unused,
    buildEnergyReclaim: () => unused,
    buildStake: () => unused,
    buildUnstake: () => unused,
    ...calls
  }
}
