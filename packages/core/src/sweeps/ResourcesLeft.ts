import type { AccountState } from "../chain/ChainModel.js"

/** Energy the account can spend now, never negative. */
export const energyLeft = (account: Pick<AccountState, "energyLimit" | "energyUsed">): bigint => {
  const left = account.energyLimit - account.energyUsed
  return left > 0n ? left : 0n
}

/**
 * Energy a delegation (lent from the stake or rented) must add for the wallet to spend `needed`.
 * java-tron counts usage not yet recovered against the new energy: a wallet that used energy
 * delegated to it earlier, taken back since, has more usage than limit, and that excess is
 * lacking too. A delegation of only `needed - energyLeft` would leave the wallet short until
 * its usage recovers (up to 24 h).
 */
export const energyToAdd = (account: Pick<AccountState, "energyLimit" | "energyUsed">, needed: bigint): bigint => {
  const lacking = needed - (account.energyLimit - account.energyUsed)
  return lacking > 0n ? lacking : 0n
}

/** Free plus staked bandwidth the account can spend now, in bytes. Bandwidth is never paid for: a wallet short of it waits. */
export const bandwidthLeft = (account: Pick<AccountState, "freeBandwidthLimit" | "freeBandwidthUsed" | "stakedBandwidthLimit" | "stakedBandwidthUsed">): bigint => {
  const free = account.freeBandwidthLimit - account.freeBandwidthUsed
  const staked = account.stakedBandwidthLimit - account.stakedBandwidthUsed
  return (free > 0n ? free : 0n) + (staked > 0n ? staked : 0n)
}
