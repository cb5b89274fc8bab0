import type { AccountState } from "../../chain/ChainModel.js"

/** A wallet's reading as the fee rules' tests start from: on chain, 5 USDT, no TRX, no energy, the day's free bandwidth. */
export const walletReading = (changes: Partial<AccountState> = {}): AccountState => ({
  address: "TWallet",
  activated: true,
  trx: 0n,
  usdt: 5_000_000n,
  energyLimit: 0n,
  energyUsed: 0n,
  freeBandwidthLimit: 600n,
  freeBandwidthUsed: 0n,
  stakedBandwidthLimit: 0n,
  stakedBandwidthUsed: 0n,
  atBlock: 10n,
  ...changes
})
