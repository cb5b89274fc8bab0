import { addressText, compact } from "./NodeJson.js"
import { energyLimit, energyUsed, freeNetUsed, netLimit, netUsed, type SimAccount } from "./SimAccount.js"
import type { SimParameters } from "./SimConfig.js"

/**
 * Accounts, resources and chain parameters as java-tron prints them (compare
 * test-fixtures/tron/nile_getaccount.response.json and *_getaccountresource_*.json).
 */

/** java-tron's window sizes are printed in slots times 1,000: 24 hours of 3-second slots. */
const windowSize = 28_800_000

/** What every fresh account's `active_permission` allows (java-tron's default operations bitmap on nile). */
const defaultOperations = "7fff1fc0033efb0f000000000000000000000000000000000000000000000000"

/** `getaccount`: recorded usages (not recovered ones: that is getaccountresource's job). */
export const accountJson = (account: SimAccount, visible: boolean) => {
  const address = addressText(account.address, visible)
  const keys = [{ address, weight: 1 }]
  return compact({
    address,
    balance: account.balance,
    create_time: account.createTime,
    latest_opration_time: account.latestOperationTime,
    net_usage: account.netUsage,
    free_net_usage: account.freeNetUsage,
    latest_consume_time: account.latestConsumeTime,
    latest_consume_free_time: account.latestConsumeFreeTime,
    net_window_size: windowSize,
    net_window_optimized: true,
    account_resource: compact({
      energy_usage: account.energyUsage,
      latest_consume_time_for_energy: account.latestConsumeTimeForEnergy,
      energy_window_size: windowSize,
      acquired_delegated_frozenV2_balance_for_energy: account.delegatedEnergyBalance,
      delegated_frozenV2_balance_for_energy: account.delegatedOutEnergy,
      energy_window_optimized: true
    }),
    owner_permission: { permission_name: "owner", threshold: 1, keys },
    active_permission: [{ type: "Active", id: 2, permission_name: "active", threshold: 1, operations: defaultOperations, keys }],
    // One entry per resource, always all three, as mainnet prints them; BANDWIDTH is the type left out as default.
    frozenV2: [
      compact({ amount: account.frozenBandwidth }),
      compact({ type: "ENERGY", amount: account.frozenEnergy }),
      { type: "TRON_POWER" }
    ],
    unfrozenV2: account.unfrozen.map((entry) =>
      compact({ type: entry.resource === "ENERGY" ? "ENERGY" : "", unfreeze_amount: entry.amount, unfreeze_expire_time: entry.expireTime })
    ),
    delegated_frozenV2_balance_for_bandwidth: account.delegatedOutBandwidth,
    acquired_delegated_frozenV2_balance_for_bandwidth: account.acquiredBandwidthBalance
  })
}

/** `getaccountresource` at `now`: usages recovered to now, limits from delegations and network totals. */
export const accountResourceJson = (account: SimAccount, parameters: SimParameters, now: number) =>
  compact({
    freeNetUsed: freeNetUsed(account, now),
    freeNetLimit: parameters.freeNetLimit,
    NetUsed: netUsed(account, now),
    NetLimit: netLimit(account, parameters),
    TotalNetLimit: parameters.totalNetLimit,
    TotalNetWeight: parameters.totalNetWeight,
    EnergyUsed: energyUsed(account, now),
    EnergyLimit: energyLimit(account, parameters),
    TotalEnergyLimit: parameters.totalEnergyLimit,
    TotalEnergyWeight: parameters.totalEnergyWeight
  })

/** `getchainparameters`: a parameter whose value is 0 is printed with its key only. */
export const chainParametersJson = (parameters: SimParameters) => ({
  chainParameter: [
    ["getMaintenanceTimeInterval", 21_600_000n],
    ["getAccountUpgradeCost", 9_999_000_000n],
    ["getCreateAccountFee", parameters.createAccountFee],
    ["getTransactionFee", parameters.transactionFee],
    ["getAssetIssueFee", 1_024_000_000n],
    ["getWitnessPayPerBlock", 16_000_000n],
    ["getCreateNewAccountFeeInSystemContract", parameters.createNewAccountFeeInSystemContract],
    ["getCreateNewAccountBandwidthRate", 1n],
    ["getAllowCreationOfContracts", 1n],
    ["getEnergyFee", parameters.energyFee],
    ["getMaxCpuTimeOfOneTx", 80n],
    ["getAllowUpdateAccountName", 0n],
    ["getAllowDelegateResource", 1n],
    ["getTotalEnergyLimit", parameters.totalEnergyLimit],
    ["getTotalEnergyCurrentLimit", parameters.totalEnergyLimit],
    ["getAllowMultiSign", 1n],
    ["getAllowAdaptiveEnergy", 0n],
    ["getFreeNetLimit", parameters.freeNetLimit],
    ["getTotalNetLimit", parameters.totalNetLimit],
    ["getMaxFeeLimit", parameters.maxFeeLimit],
    ["getAllowTvmFreeze", 1n],
    ["getUnfreezeDelayDays", 14n],
    ["getAllowDynamicEnergy", 1n],
    ["getMemoFee", 1_000_000n]
  ].map(([key, value]) => (value === 0n ? { key } : { key, value }))
})
