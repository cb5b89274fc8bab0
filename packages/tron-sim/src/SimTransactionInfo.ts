import { Trc20Call } from "@collector/tron"

/**
 * What `gettransactioninfobyid` / `gettransactioninfobyblocknum` report about an executed
 * transaction, in java-tron's terms. Block fields are filled in when a block includes it.
 */

/** A TVM event log: `address` is the emitting contract as 20-byte hex (no 41), as java-tron prints it. */
export interface SimLog {
  readonly address: string
  readonly topics: ReadonlyArray<string>
  readonly data: string
}

/** `receipt` of the info: java-tron's ResourceReceipt. */
export interface SimResourceReceipt {
  /** Energy taken from the caller's own staked or delegated energy. */
  readonly energyUsage: bigint
  /** SUN burned for energy. */
  readonly energyFee: bigint
  readonly energyUsageTotal: bigint
  /** The dynamic-energy penalty, already part of the total. */
  readonly energyPenaltyTotal: bigint
  /** Bandwidth taken from free or staked bandwidth. */
  readonly netUsage: bigint
  /** SUN burned for bandwidth (or for creating an account without bandwidth). */
  readonly netFee: bigint
  /** Set for contract calls only; system contracts (TRX transfers, delegations) have none. */
  readonly result?: "SUCCESS" | "REVERT" | "OUT_OF_ENERGY"
}

/** The transaction's outcome as blocks list it (`ret[0].contractRet`). */
export type ContractRet = "SUCCESS" | "REVERT" | "OUT_OF_ENERGY"

export interface SimTransactionInfo {
  readonly id: string
  /** Total SUN burned: energy, bandwidth and contract fees (account creation). */
  readonly fee: bigint
  readonly blockNumber: bigint
  readonly blockTimeStamp: number
  /** One entry per contract; "" when the call returned nothing. */
  readonly contractResult: ReadonlyArray<string>
  /** 21-byte hex of the called contract, for contract calls. */
  readonly contractAddress?: string
  readonly receipt: SimResourceReceipt
  readonly logs: ReadonlyArray<SimLog>
  readonly contractRet: ContractRet
  /** Why a contract call failed, as text (java-tron prints it hex encoded). */
  readonly resMessage?: string
}

/** The info of a transaction not yet in a block. */
export type ExecutedInfo = Omit<SimTransactionInfo, "blockNumber" | "blockTimeStamp">

export const emptyReceipt: SimResourceReceipt = {
  energyUsage: 0n,
  energyFee: 0n,
  energyUsageTotal: 0n,
  energyPenaltyTotal: 0n,
  netUsage: 0n,
  netFee: 0n
}

const word = (hex20: string) => hex20.padStart(64, "0")

/** The ERC-20 Transfer log exactly as java-tron reports it (addresses are 21-byte hex on input). */
export const transferLog = (contract: string, from: string, to: string, amount: bigint): SimLog => ({
  address: contract.slice(2),
  topics: [Trc20Call.transferTopic, word(from.slice(2)), word(to.slice(2))],
  data: amount.toString(16).padStart(64, "0")
})
