import { Either } from "effect"
import { adjustBalance, consumeFreeNet, consumeNet, freeNetLeft, netLeft, type SimAccount } from "./SimAccount.js"
import type { SimParameters } from "./SimConfig.js"
import { rejected, type TransactionRejected } from "./SimErrors.js"

/**
 * Paying for a transaction's bytes, java-tron's BandwidthProcessor: a transfer that creates an
 * account takes its bytes from staked bandwidth when that suffices, else burns
 * `getCreateAccountFee` (free bandwidth never pays for that); anything else uses staked
 * bandwidth (own Stake 2.0 stake plus delegated-in) while it covers the whole transaction,
 * then the 600 free bandwidth a day, then burns 1,000 SUN a byte. Neither possible:
 * BANDWITH_ERROR.
 */
export interface BandwidthPaid {
  readonly account: SimAccount
  /** Bytes taken from free bandwidth. */
  readonly netUsage: bigint
  /** SUN burned instead. */
  readonly netFee: bigint
}

export const payBandwidth = (
  account: SimAccount,
  bytes: bigint,
  createsAccount: boolean,
  parameters: SimParameters,
  now: number
): Either.Either<BandwidthPaid, TransactionRejected> => {
  if (netLeft(account, parameters, now) >= bytes) {
    return Either.right({ account: consumeNet(account, bytes, now), netUsage: bytes, netFee: 0n })
  }
  if (createsAccount) {
    const fee = parameters.createAccountFee
    return account.balance >= fee
      ? Either.right({ account: adjustBalance(account, -fee), netUsage: 0n, netFee: fee })
      : Either.left(rejected.bandwidth())
  }
  if (freeNetLeft(account, parameters, now) >= bytes) {
    return Either.right({ account: consumeFreeNet(account, bytes, now), netUsage: bytes, netFee: 0n })
  }
  const fee = bytes * parameters.transactionFee
  return account.balance >= fee
    ? Either.right({ account: adjustBalance(account, -fee), netUsage: 0n, netFee: fee })
    : Either.left(rejected.bandwidth())
}
