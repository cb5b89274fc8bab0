import { Chain } from "@collector/core"
import { RefBlock, TransactionId, TransactionRaw, Trc20Call, Trc20TransferTransaction, TronAddress } from "@collector/tron"
import { Clock, Effect, Either, Option, Ref, type Schema } from "effect"
import type { NodeClient, NodeBody, NodePath } from "./NodeClient.js"
import type { NodeConfig } from "./NodeConfig.js"
import { callNode, decodeNodeText, describeFailure, type NodeFailure, returnFailure } from "./NodeReply.js"
import { BuiltTransactionReply, ConstantCallReply, EstimateEnergyReply } from "./NodeResponses.js"

type Transfer = { readonly from: string; readonly to: string; readonly amount: bigint }

/** The `function_selector` texts the contract endpoints take (the node hashes them to the selector). */
const transferSignature = "transfer(address,uint256)"
const balanceOfSignature = "balanceOf(address)"
const isBlackListedSignature = "isBlackListed(address)"

/**
 * Only Base58Check addresses go into call data. Trc20Call also takes the `41…` hex form; the
 * adapter's inputs are Base58Check (`visible`), so hex there is refused rather than guessed at.
 */
const base58 = (address: string): Option.Option<string> =>
  TronAddress.isValidTronAddress(address) ? Option.some(address) : Option.none()

/** An int64 of decoded raw_data (a number, or a bigint beyond 2^53); absent is 0. */
const int64 = (value: TransactionRaw.Int64 | undefined): bigint => BigInt(value ?? 0)

const rejected = (reason: string) => new Chain.ChainRejected({ reason })

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
        const word = yield* required(
          Option.flatMap(base58(address), (owner) => Either.getRight(Trc20Call.balanceOfParameter(owner))),
          () => `not a TRON address: ${address}`
        )
        const path = "/walletsolidity/triggerconstantcontract"
        const reply = yield* constantCall(path, callBody(address, balanceOfSignature, word))
        return yield* required(Trc20Call.decodeUint256(reply.constant_result[0] ?? ""), () => `${path}: balanceOf returned ${reply.constant_result[0] ?? "nothing"}`)
      })

    const transferBody = (transfer: Transfer) =>
      Effect.gen(function*() {
        yield* hex21(transfer.from)
        const parameter = yield* required(
          Option.flatMap(base58(transfer.to), (to) => Either.getRight(Trc20Call.transferParameter(to, transfer.amount))),
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
     * amount and fee limit, and hash to the returned txid. The bytes are decoded with
     * TransactionRaw, which refuses anything it does not model (other contract types, several
     * contracts, unknown fields, non-canonical encodings). The call data must be byte for byte
     * the canonical `transfer` call: a 41-prefixed address word, which Trc20Call.decodeTransfer
     * would read as the same recipient, is still not what was asked for.
     */
    const buildUsdtTransfer = (transfer: Transfer & { readonly feeLimit: bigint; readonly expiration?: Date; readonly reference?: Chain.BlockRef }) =>
      Effect.gen(function*() {
        const { feeLimit } = transfer
        if (feeLimit <= 0n || feeLimit > BigInt(Number.MAX_SAFE_INTEGER)) return yield* rejected(`fee limit out of range: ${feeLimit}`)
        if (transfer.expiration !== undefined && transfer.reference !== undefined) {
          return yield* buildLocally({ ...transfer, expiration: transfer.expiration, reference: transfer.reference })
        }
        const { body, parameter } = yield* transferBody(transfer)
        const path = "/wallet/triggersmartcontract"
        const reply = yield* call(path, { ...body, fee_limit: Number(feeLimit), call_value: 0 }, BuiltTransactionReply)
        const failure = returnFailure(reply.result)
        if (Option.isSome(failure)) return yield* rejected(`${path}: ${describeFailure(failure.value)}`)
        const tx = yield* required(Option.fromNullable(reply.transaction), () => `${path} returned no transaction`)
        const rawDataHex = tx.raw_data_hex.toLowerCase()
        const txid = tx.txID.toLowerCase()
        // The reply schema has checked raw_data_hex is even-length hex.
        if (TransactionId.compute(Buffer.from(rawDataHex, "hex")) !== txid) {
          return yield* rejected(`${path}: txID ${txid} is not the hash of raw_data_hex`)
        }
        const raw = yield* Either.mapLeft(
          TransactionRaw.decodeRawDataHex(rawDataHex),
          (error) => rejected(`${path}: raw_data_hex is not a single TriggerSmartContract: ${error.reason}`)
        )
        const contract = raw.contract[0]!
        if (contract.type !== "TriggerSmartContract") return yield* rejected(`${path}: raw_data_hex is not a single TriggerSmartContract`)
        const built = contract.parameter.value
        const expected = {
          owner: yield* hex21(transfer.from),
          contract: yield* hex21(config.usdtContract),
          data: Trc20Call.transferSelector + parameter
        }
        if (
          built.owner_address !== expected.owner || built.contract_address !== expected.contract || (built.data ?? "") !== expected.data ||
          int64(built.call_value) !== 0n || int64(built.call_token_value) !== 0n || int64(raw.fee_limit) !== feeLimit
        ) {
          return yield* rejected(`${path}: the built transaction is not the requested transfer`)
        }
        if (transfer.expiration === undefined) return { txid, rawDataHex, expiration: new Date(Number(raw.expiration)), feeLimit } satisfies Chain.UnsignedTransaction
        return yield* withExpiration(raw, transfer.expiration, feeLimit)
      })

    /**
     * The same transaction built here from a reference block the caller read (TaPoS), stamped
     * with this process's clock as a node stamps its own: no node call, and the bytes signed are
     * those encoded from the request itself. A reference block that is no longer on the chain
     * makes the node refuse the broadcast (TAPOS_ERROR), never a different transfer.
     */
    const buildLocally = (transfer: Transfer & { readonly feeLimit: bigint; readonly expiration: Date; readonly reference: Chain.BlockRef }) =>
      Effect.gen(function*() {
        yield* hex21(transfer.from)
        const expiration = transfer.expiration.getTime()
        if (!Number.isSafeInteger(expiration) || expiration <= 0) return yield* rejected(`expiration out of range: ${transfer.expiration}`)
        const refBlock = yield* required(RefBlock.fromBlockId(transfer.reference.hash), () => `not a block ID: ${transfer.reference.hash}`)
        // A block ID begins with its number: one that does not is not the block the caller read.
        if (Option.getOrThrow(RefBlock.blockNumber(transfer.reference.hash)) !== transfer.reference.number) {
          return yield* rejected(`block ID ${transfer.reference.hash} is not block ${transfer.reference.number}`)
        }
        const built = yield* Either.mapLeft(
          Trc20TransferTransaction.build({
            owner: transfer.from,
            contract: config.usdtContract,
            to: transfer.to,
            amount: transfer.amount,
            feeLimit: transfer.feeLimit,
            refBlock,
            expiration: BigInt(expiration),
            timestamp: BigInt(yield* Clock.currentTimeMillis)
          }),
          (error) => rejected(`cannot build a transfer of ${transfer.amount} to ${transfer.to}: ${error.reason}`)
        )
        return { ...built, expiration: transfer.expiration, feeLimit: transfer.feeLimit } satisfies Chain.UnsignedTransaction
      })

    /**
     * The node's window (60 s after its head by default) is short for a signed transaction that
     * may wait out a worker restart; the caller may set its own expiration, which changes the
     * raw bytes and so the txid. java-tron accepts up to 24 h after the head.
     */
    const withExpiration = (raw: TransactionRaw.RawData, expiration: Date, feeLimit: bigint) =>
      Effect.gen(function*() {
        const bytes = yield* Either.mapLeft(
          TransactionRaw.encodeRawData({ ...raw, expiration: BigInt(expiration.getTime()) }),
          (error) => rejected(`could not re-encode the transfer with a new expiration: ${error.reason}`)
        )
        const rawDataHex = Buffer.from(bytes).toString("hex")
        return { txid: TransactionId.compute(bytes), rawDataHex, expiration, feeLimit } satisfies Chain.UnsignedTransaction
      })

    /** Tether's freeze list, read at the head (a freeze matters from the block it lands in). */
    const isBlackListed = (address: string) =>
      Effect.gen(function*() {
        const word = yield* required(
          Option.flatMap(base58(address), (owner) => Either.getRight(Trc20Call.addressParameter(owner))),
          () => `not a TRON address: ${address}`
        )
        const path = "/wallet/triggerconstantcontract"
        const reply = yield* constantCall(path, callBody(address, isBlackListedSignature, word))
        const value = yield* required(Trc20Call.decodeUint256(reply.constant_result[0] ?? ""), () => `${path}: isBlackListed returned ${reply.constant_result[0] ?? "nothing"}`)
        return value !== 0n
      })

    return { balanceOf, isBlackListed, estimateTransferEnergy, buildUsdtTransfer }
  })
