import { ChainRejected, type UnsignedTransaction } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { Effect, Option, Ref, type Schema } from "effect"
import type { NodeClient, NodeBody, NodePath } from "./NodeClient"
import type { NodeConfig } from "./NodeConfig"
import { callNode, decodeNodeText, describeFailure, type NodeFailure, returnFailure } from "./NodeReply"
import { BuiltTransactionReply, ConstantCallReply, EstimateEnergyReply } from "./NodeResponses"
import { addressWord, balanceOfSignature, decodeUint256, transferParameter, transferSelector, transferSignature } from "./Trc20Abi"
import { readTriggerCall, txidOf } from "./TransactionBytes"

type Transfer = { readonly from: string; readonly to: string; readonly amount: bigint }

const rejected = (reason: string) => new ChainRejected({ reason })

/** Fails with ChainRejected naming the value when it is None: inputs are checked before any call. */
const required = <A>(option: Option.Option<A>, what: () => string) =>
  Option.match(option, { onNone: () => Effect.fail(rejected(what())), onSome: Effect.succeed })

const hex21 = (address: string) => required(TronAddress.toHex(address), () => `not a TRON address: ${address}`)

/** How java-tron declines `estimateenergy`, which is off unless the node's operator enables it. */
const isEstimateDisabled = (failure: NodeFailure) => failure.message.includes("does not support estimate energy")

/**
 * Why a constant call failed: a call the node could not run has `result.result: false`; a call
 * that ran and reverted (or ran out of energy) keeps `result.result: true` and shows only as
 * `transaction.ret[0].ret == "FAILED"`, with the reason in `result.message`.
 */
const constantCallFailure = (reply: typeof ConstantCallReply.Type): Option.Option<NodeFailure> =>
  !reply.result.result
    ? returnFailure(reply.result)
    : reply.transaction?.ret[0]?.ret === "FAILED"
    ? Option.some({ code: "FAILED", message: decodeNodeText(reply.result.message ?? "") })
    : Option.none()

/** USDT calls through the node's contract endpoints; addresses in and out are Base58Check (`visible`). */
export const makeUsdtCalls = (node: NodeClient, config: NodeConfig) =>
  Effect.gen(function*() {
    const estimateEnabled = yield* Ref.make(true)
    const call = <A, I>(path: NodePath, body: NodeBody, schema: Schema.Schema<A, I>) => callNode(node, path, body, schema)

    const callBody = (owner: string, signature: string, parameter: string): NodeBody => ({
      owner_address: owner,
      contract_address: config.usdtContract,
      function_selector: signature,
      parameter,
      visible: true
    })

    const constantCall = (path: NodePath, body: NodeBody) =>
      Effect.flatMap(call(path, body, ConstantCallReply), (reply) =>
        Option.match(constantCallFailure(reply), {
          onNone: () => Effect.succeed(reply),
          onSome: (failure) => Effect.fail(rejected(`${path}: ${describeFailure(failure)}`))
        }))

    /** USDT balance at the solidified block. */
    const balanceOf = (address: string) =>
      Effect.gen(function*() {
        const word = yield* required(addressWord(address), () => `not a TRON address: ${address}`)
        const path = "/walletsolidity/triggerconstantcontract"
        const reply = yield* constantCall(path, callBody(address, balanceOfSignature, word))
        return yield* required(decodeUint256(reply.constant_result[0] ?? ""), () => `${path}: balanceOf returned ${reply.constant_result[0] ?? "nothing"}`)
      })

    const transferBody = (transfer: Transfer) =>
      Effect.gen(function*() {
        yield* hex21(transfer.from)
        const parameter = yield* required(
          transferParameter(transfer.to, transfer.amount),
          () => `cannot encode a transfer of ${transfer.amount} to ${transfer.to}`
        )
        return { parameter, body: callBody(transfer.from, transferSignature, parameter) }
      })

    /**
     * `estimateenergy` where the node enables it (it searches for the energy that lets the call
     * succeed), else the energy a constant run of the transfer used. Both include the dynamic
     * energy penalty: java-tron adds it into `energy_used` as well as reporting `energy_penalty`.
     */
    const estimateTransferEnergy = (transfer: Transfer) =>
      Effect.gen(function*() {
        const { body } = yield* transferBody(transfer)
        if (yield* Ref.get(estimateEnabled)) {
          const reply = yield* call("/wallet/estimateenergy", body, EstimateEnergyReply)
          const failure = returnFailure(reply.result)
          if (Option.isNone(failure)) return reply.energy_required
          if (!isEstimateDisabled(failure.value)) return yield* rejected(`/wallet/estimateenergy: ${describeFailure(failure.value)}`)
          yield* Ref.set(estimateEnabled, false)
          yield* Effect.logInfo(`TRON ${config.network} node does not enable estimateenergy: estimating with triggerconstantcontract`)
        }
        return (yield* constantCall("/wallet/triggerconstantcontract", body)).energy_used
      })

    /**
     * Has the node build the transfer, then reads the returned raw_data itself: the signer will
     * sign these bytes, so they must call USDT's transfer with exactly the requested recipient,
     * amount and fee limit, and hash to the returned txid.
     */
    const buildUsdtTransfer = (transfer: Transfer & { readonly feeLimit: bigint }) =>
      Effect.gen(function*() {
        const { feeLimit } = transfer
        if (feeLimit <= 0n || feeLimit > BigInt(Number.MAX_SAFE_INTEGER)) return yield* rejected(`fee limit out of range: ${feeLimit}`)
        const { body, parameter } = yield* transferBody(transfer)
        const path = "/wallet/triggersmartcontract"
        const reply = yield* call(path, { ...body, fee_limit: Number(feeLimit), call_value: 0 }, BuiltTransactionReply)
        const failure = returnFailure(reply.result)
        if (Option.isSome(failure)) return yield* rejected(`${path}: ${describeFailure(failure.value)}`)
        const tx = yield* required(Option.fromNullable(reply.transaction), () => `${path} returned no transaction`)
        const rawDataHex = tx.raw_data_hex.toLowerCase()
        const txid = tx.txID.toLowerCase()
        if (txidOf(rawDataHex) !== txid) return yield* rejected(`${path}: txID ${txid} is not the hash of raw_data_hex`)
        const built = yield* required(readTriggerCall(rawDataHex), () => `${path}: raw_data_hex is not a single TriggerSmartContract`)
        const expected = {
          owner: yield* hex21(transfer.from),
          contract: yield* hex21(config.usdtContract),
          data: transferSelector + parameter
        }
        if (
          built.owner !== expected.owner || built.contract !== expected.contract || built.data !== expected.data ||
          built.callValue !== 0n || built.tokenValue !== 0n || built.feeLimit !== feeLimit
        ) {
          return yield* rejected(`${path}: the built transaction is not the requested transfer`)
        }
        return { txid, rawDataHex, expiration: new Date(Number(built.expiration)), feeLimit } satisfies UnsignedTransaction
      })

    return { balanceOf, estimateTransferEnergy, buildUsdtTransfer }
  })
