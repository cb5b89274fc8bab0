import { Either } from "effect"
import { adjustBalance, consumeFreeNet, freeNetLeft, type SimAccount } from "./SimAccount.js"
import type { SimParameters } from "./SimConfig.js"
import { rejected, type TransactionRejected } from "./SimErrors.js"

/**
 * Paying for a transaction's bytes, java-tron's BandwidthProcessor without staked bandwidth
 * (the simulator stakes none): a transfer that creates an account burns `getCreateAccountFee`
 * (free bandwidth never pays for that); anything else uses the 600 free bandwidth a day while
 * it lasts, then burns 1,000 SUN a byte. Neither possible: BANDWITH_ERROR.
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
