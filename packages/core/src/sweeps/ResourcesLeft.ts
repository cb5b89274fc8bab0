import type { AccountState } from "../chain/ChainModel.js"

/** Energy the account can spend now, never negative. */
export const energyLeft = (account: Pick<AccountState, "energyLimit" | "energyUsed">): bigint => {
  const left = account.energyLimit - account.energyUsed
  return left > 0n ? left : 0n
}

/** Free plus staked bandwidth the account can spend now, in bytes. Bandwidth is never paid for: a wallet short of it waits. */
export const bandwidthLeft = (account: Pick<AccountState, "freeBandwidthLimit" | "freeBandwidthUsed" | "stakedBandwidthLimit" | "stakedBandwidthUsed">): bigint => {
  const free = account.freeBandwidthLimit - account.freeBandwidthUsed
  const staked = account.stakedBandwidthLimit - account.stakedBandwidthUsed
  return (free > 0n ? free : 0n) + (staked > 0n ? staked : 0n)
}
