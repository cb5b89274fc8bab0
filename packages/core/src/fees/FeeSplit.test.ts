import { describe, expect, it } from "@effect/vitest"
import type { Receipt } from "../chain/ChainModel.js"
import type { EnergyDelegation } from "../delegation/EnergyDelegation.js"
import type { EnergyRental } from "../energy/EnergyRental.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { SweepTask, SweepTaskId } from "../sweeps/SweepTask.js"
import { feeEntry } from "./FeeSplit.js"

/*
 * The split rule on a hand-written table. Mainnet figures: a USDT transfer uses 64,285 energy
 * (130,285 to an empty recipient); energy costs 100 SUN when burned; a transfer's ~345 bytes of
 * bandwidth cost 1,000 SUN each when burned. Every expected figure is worked out by hand in the
 * row's comment, never by calling the rule.
 */

const at = (iso: string) => new Date(iso)
const txid = "c".repeat(64)

const task = (over: Partial<SweepTask> = {}): SweepTask => ({
  id: "501" as SweepTaskId,
  tenantId: "7" as TenantId,
  network: "main",
  walletId: "42" as WalletId,
  address: "TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj",
  mode: "all",
  requestedAmount: null,
  minimumAmount: null,
  amount: 250_000_000n,
  destination: "TCollectionAddress",
  origin: "manual",
  status: "succeeded",
  stage: "ready",
  reason: "",
  transaction: { txid, rawDataHex: "0a02", signature: "ff", expiration: at("2026-03-01T00:01:00Z"), feeLimit: 30_000_000n },
  actualFee: 0n,
  actualBandwidthFee: 0n,
  feeWarning: null,
  feeSource: "resources",
  preparedEnergy: 64_285n,
  estimatedWalletTrxFee: null,
  maxWalletTrxFee: 15_000_000n,
  rental: null,
  energyPath: null,
  feeReason: null,
  createdAt: at("2026-03-01T00:00:00Z"),
  updatedAt: at("2026-03-01T00:00:30Z"),
  nextStepAt: at("2026-03-01T00:00:30Z"),
  prepareBy: at("2026-03-01T01:00:00Z"),
  version: 4,
  ...over
})

const rental = (over: Partial<EnergyRental>): EnergyRental => ({
  orderId: "o-1",
  provider: "catfee",
  providerOrderId: "p-1",
  quantity: 65_000n,
  estimatedCost: 5_200_000n,
  paidCost: 5_200_000n,
  activationCost: 0n,
  state: "delivered",
  expiresAt: at("2026-03-01T01:00:00Z"),
  ...over
})

const delegation = (over: Partial<EnergyDelegation>): EnergyDelegation => ({
  taskId: "501" as SweepTaskId,
  network: "main",
  owner: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  receiver: "TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj",
  energy: 64_285n,
  balance: 6_858_000_000n,
  state: "reclaimed",
  delegateTxid: "a".repeat(64),
  delegateExpiration: at("2026-03-01T00:01:00Z"),
  reclaimTxid: "b".repeat(64),
  reclaimExpiration: at("2026-03-01T00:11:00Z"),
  createdAt: at("2026-03-01T00:00:10Z"),
  updatedAt: at("2026-03-01T00:05:00Z"),
  ...over
})

const receipt = (over: Partial<Receipt>): Receipt => ({
  txid,
  blockNumber: 70_000_123n,
  blockTime: at("2026-03-01T00:00:27Z"),
  result: "SUCCESS",
  fee: 0n,
  energyFee: 0n,
  energyUsage: 64_285n,
  bandwidthFee: 0n,
  bandwidthUsage: 345n,
  ...over
})

interface Row {
  readonly name: string
  readonly task: SweepTask
  readonly receipt: Receipt
  readonly delegation: EnergyDelegation | null
  /** The receipts of the delegation's transactions; none unless given. */
  readonly lending?: ReadonlyArray<Receipt>
  readonly price: bigint
  readonly expected: {
    readonly own: bigint
    readonly delegated: bigint
    readonly rented: bigint
    readonly burned: bigint
    readonly networkEnergyFee: bigint
    readonly networkBandwidthFee: bigint
    readonly providerEnergyCost: bigint
    readonly providerActivationCost: bigint
    readonly lendingFee: bigint
    readonly burnEquivalent: bigint
    readonly saving: bigint
  }
}

const table: ReadonlyArray<Row> = [
  {
    // The wallet's own staked energy paid it all: nothing burned or paid; 64,285 × 100 saved.
    name: "all own",
    task: task(),
    receipt: receipt({}),
    delegation: null,
    price: 100n,
    expected: { own: 64_285n, delegated: 0n, rented: 0n, burned: 0n, networkEnergyFee: 0n, networkBandwidthFee: 0n, providerEnergyCost: 0n, providerActivationCost: 0n, lendingFee: 0n, burnEquivalent: 6_428_500n, saving: 6_428_500n }
  },
  {
    // 6,428,500 SUN burned / 100 = 64,285 energy; bandwidth 345 bytes × 1,000 = 345,000 SUN, outside the saving: 0.
    name: "all burned",
    task: task({ feeSource: "wallet_trx", actualFee: 6_773_500n, actualBandwidthFee: 345_000n }),
    receipt: receipt({ fee: 6_773_500n, energyFee: 6_428_500n, bandwidthFee: 345_000n }),
    delegation: null,
    price: 100n,
    expected: { own: 0n, delegated: 0n, rented: 0n, burned: 64_285n, networkEnergyFee: 6_428_500n, networkBandwidthFee: 345_000n, providerEnergyCost: 0n, providerActivationCost: 0n, lendingFee: 0n, burnEquivalent: 6_428_500n, saving: 0n }
  },
  {
    // Empty recipient: 130,285 used; 65,000 rented at 80 SUN = 5,200,000; the other 65,285 burned = 6,528,500.
    // Burn-equivalent 13,028,500; saving 13,028,500 − 6,528,500 − 5,200,000 = 1,300,000.
    name: "rented, the remainder burned",
    task: task({ feeSource: "rental", rental: rental({}) }),
    receipt: receipt({ energyUsage: 130_285n, energyFee: 6_528_500n, fee: 6_528_500n }),
    delegation: null,
    price: 100n,
    expected: { own: 0n, delegated: 0n, rented: 65_000n, burned: 65_285n, networkEnergyFee: 6_528_500n, networkBandwidthFee: 0n, providerEnergyCost: 5_200_000n, providerActivationCost: 0n, lendingFee: 0n, burnEquivalent: 13_028_500n, saving: 1_300_000n }
  },
  {
    // 60,000 lent from the stake (delegated, then taken back); the wallet's own 4,285 did the rest.
    // The resource account had free bandwidth for both: lending cost nothing.
    name: "delegated, topped up by the wallet's own",
    task: task(),
    receipt: receipt({}),
    delegation: delegation({ energy: 60_000n }),
    lending: [receipt({ txid: "a".repeat(64), energyUsage: 0n, bandwidthUsage: 268n }), receipt({ txid: "b".repeat(64), energyUsage: 0n, bandwidthUsage: 269n })],
    price: 100n,
    expected: { own: 4_285n, delegated: 60_000n, rented: 0n, burned: 0n, networkEnergyFee: 0n, networkBandwidthFee: 0n, providerEnergyCost: 0n, providerActivationCost: 0n, lendingFee: 0n, burnEquivalent: 6_428_500n, saving: 6_428_500n }
  },
  {
    // All 64,285 lent. The resource account's free bandwidth was used up: it burned 268 bytes × 1,000
    // for the delegation and 269 × 1,000 for the reclaim, 537,000 in all; saving 6,428,500 − 537,000.
    name: "delegated, the resource account burning for its bandwidth",
    task: task(),
    receipt: receipt({}),
    delegation: delegation({}),
    lending: [
      receipt({ txid: "a".repeat(64), energyUsage: 0n, bandwidthUsage: 268n, bandwidthFee: 268_000n, fee: 268_000n }),
      receipt({ txid: "b".repeat(64), energyUsage: 0n, bandwidthUsage: 269n, bandwidthFee: 269_000n, fee: 269_000n })
    ],
    price: 100n,
    expected: { own: 0n, delegated: 64_285n, rented: 0n, burned: 0n, networkEnergyFee: 0n, networkBandwidthFee: 0n, providerEnergyCost: 0n, providerActivationCost: 0n, lendingFee: 537_000n, burnEquivalent: 6_428_500n, saving: 5_891_500n }
  },
  {
    // A delegation recorded but never landed (reclaimed with no reclaim transaction) lent nothing: all burned.
    name: "a delegation that never landed",
    task: task(),
    receipt: receipt({ energyFee: 6_428_500n, fee: 6_428_500n }),
    delegation: delegation({ reclaimTxid: null, reclaimExpiration: null }),
    price: 100n,
    expected: { own: 0n, delegated: 0n, rented: 0n, burned: 64_285n, networkEnergyFee: 6_428_500n, networkBandwidthFee: 0n, providerEnergyCost: 0n, providerActivationCost: 0n, lendingFee: 0n, burnEquivalent: 6_428_500n, saving: 0n }
  },
  {
    // New wallet: the provider activates it (1,100,000) and rents 131,000 at 90 = 11,790,000; 130,285 used, all rented.
    // Saving 13,028,500 − 11,790,000 − 1,100,000 = 138,500.
    name: "rented with activation",
    task: task({ feeSource: "rental", rental: rental({ quantity: 131_000n, paidCost: 11_790_000n, activationCost: 1_100_000n }) }),
    receipt: receipt({ energyUsage: 130_285n }),
    delegation: null,
    price: 100n,
    expected: { own: 0n, delegated: 0n, rented: 130_285n, burned: 0n, networkEnergyFee: 0n, networkBandwidthFee: 0n, providerEnergyCost: 11_790_000n, providerActivationCost: 1_100_000n, lendingFee: 0n, burnEquivalent: 13_028_500n, saving: 138_500n }
  },
  {
    // The transfer reverted on chain after 30,000 energy, all burned (3,000,000): booked like any other.
    name: "failed transfer on chain",
    task: task({ status: "failed", reason: "REVERT", actualFee: 3_000_000n }),
    receipt: receipt({ result: "REVERT", energyUsage: 30_000n, energyFee: 3_000_000n, fee: 3_000_000n }),
    delegation: null,
    price: 100n,
    expected: { own: 0n, delegated: 0n, rented: 0n, burned: 30_000n, networkEnergyFee: 3_000_000n, networkBandwidthFee: 0n, providerEnergyCost: 0n, providerActivationCost: 0n, lendingFee: 0n, burnEquivalent: 3_000_000n, saving: 0n }
  },
  {
    // Rental ordered but it failed: 0 rented, nothing paid; the wallet burned it all.
    name: "a rental that failed",
    task: task({ rental: rental({ state: "failed", paidCost: 0n }) }),
    receipt: receipt({ energyFee: 6_428_500n, fee: 6_428_500n }),
    delegation: null,
    price: 100n,
    expected: { own: 0n, delegated: 0n, rented: 0n, burned: 64_285n, networkEnergyFee: 6_428_500n, networkBandwidthFee: 0n, providerEnergyCost: 0n, providerActivationCost: 0n, lendingFee: 0n, burnEquivalent: 6_428_500n, saving: 0n }
  },
  {
    // Price raised to 420 since the block burned at 100: 6,428,500 / 420 = 15,305 (floor) burned, 48,980 own;
    // burn-equivalent at today's price 64,285 × 420 = 26,999,700; saving 26,999,700 − 6,428,500 = 20,571,200.
    name: "the price moved since the block",
    task: task(),
    receipt: receipt({ energyFee: 6_428_500n, fee: 6_428_500n }),
    delegation: null,
    price: 420n,
    expected: { own: 48_980n, delegated: 0n, rented: 0n, burned: 15_305n, networkEnergyFee: 6_428_500n, networkBandwidthFee: 0n, providerEnergyCost: 0n, providerActivationCost: 0n, lendingFee: 0n, burnEquivalent: 26_999_700n, saving: 20_571_200n }
  }
]

describe("feeEntry", () => {
  for (const row of table) {
    it(row.name, () => {
      const bookedAt = at("2026-03-01T00:10:00Z")
      const entry = feeEntry({ task: row.task, receipt: row.receipt, delegation: row.delegation, lendingReceipts: row.lending ?? [], energyPrice: row.price, bookedAt })
      const { own, delegated, rented, burned, ...money } = row.expected
      expect(entry).toEqual({
        taskId: "501",
        tenantId: "7",
        network: "main",
        walletId: "42",
        txid,
        blockNumber: 70_000_123n,
        blockTime: at("2026-03-01T00:00:27Z"),
        energy: { own, delegated, rented, burned },
        ...money,
        energyPrice: row.price,
        bookedAt
      })
      // Every unit of energy the receipt shows is in exactly one source.
      expect(own + delegated + rented + burned).toBe(row.receipt.energyUsage)
    })
  }
})
