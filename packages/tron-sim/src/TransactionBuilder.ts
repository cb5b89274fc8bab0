import { TransactionRaw } from "@collector/tron"
import { Either } from "effect"
import { isContract } from "./SimConfig.js"
import { TransactionRejected } from "./SimErrors.js"
import { head, type SimState } from "./SimState.js"
import { referenceTo } from "./Tapos.js"

/**
 * Unsigned transactions as java-tron's builders make them (Wallet.setTransaction): referencing
 * the head block (TaPoS), expiring `expirationMs` after the head block's time, stamped with the
 * current time. The exact bytes come from TransactionRaw, so tronweb's re-encoding check passes.
 */

/** The raw_data of one contract, built now on the current head. */
export const rawFor = (state: SimState, contract: TransactionRaw.Contract, now: number, feeLimit?: bigint): TransactionRaw.RawData => {
  const block = head(state)
  return {
    contract: [contract],
    ...referenceTo(block),
    expiration: block.timestamp + state.config.expirationMs,
    timestamp: now,
    ...(feeLimit === undefined || feeLimit === 0n ? {} : { fee_limit: feeLimit })
  }
}

export const triggerContract = (value: TransactionRaw.TriggerSmartContract): TransactionRaw.Contract => ({
  type: "TriggerSmartContract",
  parameter: { value, type_url: TransactionRaw.typeUrl("TriggerSmartContract") }
})

export const transferContract = (value: TransactionRaw.TransferContract): TransactionRaw.Contract => ({
  type: "TransferContract",
  parameter: { value, type_url: TransactionRaw.typeUrl("TransferContract") }
})

export const delegateContract = (
  type: "DelegateResourceContract" | "UnDelegateResourceContract",
  value: TransactionRaw.DelegateResourceContract
): TransactionRaw.Contract =>
  type === "DelegateResourceContract"
    ? { type, parameter: { value, type_url: TransactionRaw.typeUrl(type) } }
    : { type, parameter: { value, type_url: TransactionRaw.typeUrl(type) } }

export interface TriggerRequest {
  /** 21-byte hex. */
  readonly owner: string
  readonly contract: string
  /** Call data, hex: selector and arguments. */
  readonly data: string
  readonly callValue: bigint
  readonly feeLimit: bigint
}

/**
 * `triggersmartcontract`: java-tron builds any call to an existing contract without running it
 * (the owner is not checked until broadcast). The contracts here are USDT and the other token. The message of a
 * refusal is the bare exception text, as that servlet prints it.
 */
export const buildTrigger = (state: SimState, request: TriggerRequest, now: number): Either.Either<TransactionRaw.RawData, TransactionRejected> => {
  if (!isContract(state.config, request.contract)) {
    return Either.left(new TransactionRejected({ code: "CONTRACT_VALIDATE_ERROR", message: "No contract or not a valid smart contract" }))
  }
  const value: TransactionRaw.TriggerSmartContract = {
    owner_address: request.owner,
    contract_address: request.contract,
    ...(request.data === "" ? {} : { data: request.data.toLowerCase() }),
    ...(request.callValue === 0n ? {} : { call_value: request.callValue })
  }
  return Either.right(rawFor(state, triggerContract(value), now, request.feeLimit))
}
