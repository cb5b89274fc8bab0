import { Either } from "effect"
import { builtTransactionJson } from "./BlockJson.js"
import { bytesText, returnFailure } from "./NodeJson.js"
import { addressField, type Body, callData, type ErrorReply, intField } from "./RequestBody.js"
import { isContract } from "./SimConfig.js"
import { head, type SimState, solidified } from "./SimState.js"
import { buildTrigger, rawFor, triggerContract } from "./TransactionBuilder.js"
import { parseCall, runCall } from "./UsdtContract.js"

/**
 * The contract endpoints: `triggerconstantcontract` (run without a transaction: balances and
 * the energy a transfer would use), `estimateenergy` (where the operator enables it) and
 * `triggersmartcontract` (build an unsigned call). Constant calls run on the head's state on
 * `/wallet`, on the solidified state on `/walletsolidity`.
 */

interface CallRequest {
  readonly owner: string
  readonly contract: string
  readonly data: string
}

const readCall = (body: Body, visible: boolean): Either.Either<CallRequest, ErrorReply> =>
  Either.all({
    owner: addressField(body, "owner_address", visible),
    contract: addressField(body, "contract_address", visible),
    data: callData(body)
  })

const noContract = (visible: boolean) => returnFailure("CONTRACT_VALIDATE_ERROR", "No contract or not a valid smart contract", visible)

/** Runs the call on the chosen state; undefined when the address is none of the simulated contracts. */
const run = (state: SimState, request: CallRequest, solidity: boolean) => {
  if (!isContract(state.config, request.contract)) return undefined
  const world = (solidity ? solidified(state) : head(state)).world
  return runCall(world, request.contract, request.owner, parseCall(request.data), state.config.transferEnergy, state.issuer.hex)
}

export const triggerConstantContract = (state: SimState, body: Body, visible: boolean, solidity: boolean, now: number): unknown =>
  Either.match(readCall(body, visible), {
    onLeft: (error) => error,
    onRight: (request) => {
      const result = run(state, request, solidity)
      if (result === undefined) return noContract(visible)
      const raw = rawFor(state, triggerContract({ owner_address: request.owner, contract_address: request.contract, data: request.data }), now)
      const reverted = result.outcome === "REVERT"
      return {
        // A call that ran and reverted still has result.result true: the failure is in `ret`.
        result: reverted ? { result: true, message: bytesText(result.revertReason ?? "", visible) } : { result: true },
        energy_used: result.energy,
        ...(result.penalty > 0n ? { energy_penalty: result.penalty } : {}),
        constant_result: [result.returned],
        transaction: { ret: [reverted ? { ret: "FAILED" } : {}], ...builtTransactionJson(raw, visible) }
      }
    }
  })

export const estimateEnergy = (state: SimState, body: Body, visible: boolean, solidity: boolean): unknown => {
  if (!state.estimateEnergy) return returnFailure("CONTRACT_VALIDATE_ERROR", "this node does not support estimate energy", visible)
  return Either.match(readCall(body, visible), {
    onLeft: (error) => error,
    onRight: (request) => {
      const result = run(state, request, solidity)
      if (result === undefined) return noContract(visible)
      return result.outcome === "REVERT"
        ? returnFailure("CONTRACT_EXE_ERROR", result.revertReason ?? "REVERT opcode executed", visible)
        : { result: { result: true }, energy_required: result.energy }
    }
  })
}

/** java-tron checks these two before anything else, with InvalidParameterException. */
const missingParameter = (body: Body, visible: boolean) => {
  for (const name of ["owner_address", "contract_address"]) {
    if (typeof body[name] !== "string" || body[name] === "") {
      return returnFailure("OTHER_ERROR", `class java.security.InvalidParameterException : ${name} isn't set.`, visible)
    }
  }
  return undefined
}

export const triggerSmartContract = (state: SimState, body: Body, visible: boolean, now: number): unknown => {
  const missing = missingParameter(body, visible)
  if (missing !== undefined) return missing
  const request = Either.all({ call: readCall(body, visible), feeLimit: intField(body, "fee_limit"), callValue: intField(body, "call_value") })
  if (Either.isLeft(request)) return request.left
  const { call, callValue, feeLimit } = request.right
  return Either.match(buildTrigger(state, { ...call, callValue, feeLimit }, now), {
    onLeft: (refusal) => returnFailure(refusal.code, refusal.message, visible),
    onRight: (raw) => ({ result: { result: true }, transaction: builtTransactionJson(raw, visible) })
  })
}
