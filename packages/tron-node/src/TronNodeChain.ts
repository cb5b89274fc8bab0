import { Chain, type Kernel } from "@collector/core"
import { TronAddress } from "@collector/tron"
import type { HttpClient } from "@effect/platform"
import { type Config, type ConfigError, Effect, Either, Layer, Option, type Schema } from "effect"
import { broadcastOutcome } from "./BroadcastResult.js"
import { makeNodeClient, type NodeBody, type NodePath, parseNodeJson } from "./NodeClient.js"
import { type NodeConfig, nodeConfig } from "./NodeConfig.js"
import { callNode, decodeReply, describeFailure, errorReply, isUnknownObject } from "./NodeReply.js"
import { toReceipt } from "./NodeReceipt.js"
import {
  AccountReply,
  AccountResourceReply,
  BlockReply,
  ChainParametersReply,
  TransactionInfo
} from "./NodeResponses.js"
import { signedTransactionHex } from "./SignedTransaction.js"
import { makeStakeCalls } from "./StakeCalls.js"
import { usdtTransfers } from "./TransferLogs.js"
import { makeUsdtCalls } from "./UsdtCalls.js"

/**
 * The Chain port over a java-tron node's HTTP API (or TronGrid). Blocks are read with
 * `getblock` and `detail: false`: the header only, where `getnowblock` and `getblockbynum`
 * (which has no `detail` switch) would ship every transaction of the block.
 */

const rejected = (reason: string) => new Chain.ChainRejected({ reason })

const toBlockRef = (reply: BlockReply): Chain.BlockRef => ({
  number: reply.block_header.raw_data.number,
  hash: reply.blockID.toLowerCase(),
  parentHash: reply.block_header.raw_data.parentHash.toLowerCase(),
  timestamp: new Date(Number(reply.block_header.raw_data.timestamp))
})

/** java-tron sets an all-zero Merkle root on a block without transactions. */
const hasTransactions = (reply: BlockReply) => /[1-9a-f]/i.test(reply.block_header.raw_data.txTrieRoot)

const txidPattern = /^[0-9a-fA-F]{64}$/

/** The parameters the port needs; a missing key means the node is not what we think it is. */
const requiredParameters = [
  "getEnergyFee",
  "getTransactionFee",
  "getFreeNetLimit",
  "getCreateNewAccountFeeInSystemContract",
  "getCreateAccountFee"
] as const

export const make = (config: NodeConfig): Effect.Effect<Chain.ChainService, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    // Config from the environment is validated already; this catches a hand-built one at startup.
    if (!TronAddress.isValidTronAddress(config.usdtContract)) {
      return yield* Effect.dieMessage(`USDT contract of ${config.network} is not a TRON address: ${config.usdtContract}`)
    }
    // Logs carry the emitting contract as 20-byte hex without the 41 prefix.
    const usdtLog = { address: config.usdtContract, hex20: Option.getOrThrow(TronAddress.toHex(config.usdtContract)).slice(2).toLowerCase() }
    const node = yield* makeNodeClient(config)
    const usdt = yield* makeUsdtCalls(node, config)
    const stake = makeStakeCalls(node)
    const call = <A, I>(path: NodePath, body: NodeBody, schema: Schema.Schema<A, I>) => callNode(node, path, body, schema)

    const latestBlock = (path: NodePath) =>
      node.post(path, { detail: false }).pipe(
        // A node with no block (starting, resyncing) cannot serve; another node may: unavailable, not a refusal.
        Effect.filterOrFail((json) => !isUnknownObject(json), () => new Chain.ChainUnavailable({ reason: `${path}: the node has no block yet` })),
        Effect.flatMap(decodeReply(BlockReply, path)),
        Effect.map(toBlockRef)
      )

    /**
     * Header first, receipts second, one after the other: should the node switch forks in
     * between, the header is the older fork's and the next block's parentHash will not match it,
     * so the scanner notices and rescans. The other order could pair a new header with old logs.
     */
    const blockTransfers: Chain.ChainService["blockTransfers"] = (number) =>
      Effect.gen(function*() {
        const blockPath = "/wallet/getblock"
        const blockJson = yield* node.post(blockPath, { id_or_num: number.toString(), detail: false })
        if (isUnknownObject(blockJson)) return yield* new Chain.BlockNotFound({ number })
        const block = yield* decodeReply(BlockReply, blockPath)(blockJson)
        if (block.block_header.raw_data.number !== number) {
          return yield* rejected(`${blockPath}: asked for block ${number}, got ${block.block_header.raw_data.number}`)
        }
        const infoPath = "/wallet/gettransactioninfobyblocknum"
        // Plain JSON.parse, not the lossless one: TransferLogs reads no number a double could round.
        const infoJson = yield* Effect.flatMap(node.postText(infoPath, { num: Number(number) }), (text) => parseNodeJson(infoPath, text))
        const failure = errorReply(infoJson)
        if (Option.isSome(failure)) return yield* rejected(`${infoPath}: ${describeFailure(failure.value)}`)
        const entries = isUnknownObject(infoJson) ? [] : infoJson
        const { receiptCount, transfers } = yield* Either.mapLeft(usdtTransfers(entries, number, usdtLog), (reason) => rejected(`${infoPath}: ${reason}`))
        // A node behind a load balancer may serve the header before it has the receipts.
        if (receiptCount === 0 && hasTransactions(block)) {
          return yield* new Chain.ChainUnavailable({ reason: `${infoPath}: no receipts yet for block ${number}, which has transactions` })
        }
        return { block: toBlockRef(block), transfers }
      })

    const resources: Chain.ChainService["resources"] = (address) =>
      Effect.gen(function*() {
        if (!TronAddress.isValidTronAddress(address)) return yield* rejected(`not a TRON address: ${address}`)
        const reply = yield* call("/wallet/getaccountresource", { address, visible: true }, AccountResourceReply)
        return {
          energyLimit: reply.EnergyLimit,
          energyUsed: reply.EnergyUsed,
          freeBandwidthLimit: reply.freeNetLimit,
          freeBandwidthUsed: reply.freeNetUsed,
          stakedBandwidthLimit: reply.NetLimit,
          stakedBandwidthUsed: reply.NetUsed
        }
      })

    /** The TRX balance and activation from `/walletsolidity/getaccount`: an account the node does not know is not activated. */
    const trxBalance: Chain.ChainService["trxBalance"] = (address) =>
      Effect.gen(function*() {
        if (!TronAddress.isValidTronAddress(address)) return yield* rejected(`not a TRON address: ${address}`)
        const accountPath = "/walletsolidity/getaccount"
        const accountJson = yield* node.post(accountPath, { address, visible: true })
        const activated = !isUnknownObject(accountJson)
        const trx = activated ? (yield* decodeReply(AccountReply, accountPath)(accountJson)).balance : 0n
        return { activated, trx }
      })

    /**
     * Balances at the solidified block: its number is read first (unless the caller read it),
     * so the figures are at least that recent. Two calls: the TRX balance and activation from
     * `/walletsolidity/getaccount`, the USDT balance from a constant `balanceOf` call.
     */
    const balances: Chain.ChainService["balances"] = (address, solidified) =>
      Effect.gen(function*() {
        if (!TronAddress.isValidTronAddress(address)) return yield* rejected(`not a TRON address: ${address}`)
        const [held, usdtBalance] = yield* Effect.all([trxBalance(address), usdt.balanceOf(address)], { concurrency: "unbounded" })
        return { address, ...held, usdt: usdtBalance, atBlock: solidified }
      })

    /**
     * Balances as `balances` gives them, and the resource figures. java-tron serves no
     * `/walletsolidity/getaccountresource`, so those (energy and bandwidth, which regenerate and
     * are only used to plan) are the head's.
     */
    const account: Chain.ChainService["account"] = (address, solidified) =>
      Effect.gen(function*() {
        if (!TronAddress.isValidTronAddress(address)) return yield* rejected(`not a TRON address: ${address}`)
        const atBlock = solidified ?? (yield* latestBlock("/walletsolidity/getblock")).number
        const [held, figures] = yield* Effect.all([balances(address, atBlock), resources(address)], { concurrency: "unbounded" })
        return { ...held, ...figures }
      })

    const parameters: Chain.ChainService["parameters"] = Effect.gen(function*() {
      const path = "/wallet/getchainparameters"
      const reply = yield* call(path, {}, ChainParametersReply)
      const values = new Map(reply.chainParameter.map(({ key, value }) => [key, value]))
      const missing = requiredParameters.filter((key) => !values.has(key))
      if (missing.length > 0) return yield* rejected(`${path}: missing ${missing.join(", ")}`)
      const value = (key: typeof requiredParameters[number]) => values.get(key)!
      return {
        energyFee: value("getEnergyFee"),
        bandwidthFee: value("getTransactionFee"),
        freeBandwidthPerDay: value("getFreeNetLimit"),
        activationFee: value("getCreateNewAccountFeeInSystemContract") + value("getCreateAccountFee")
      }
    })

    /**
     * Sent once: after a timeout the transaction may or may not have been relayed, and only the
     * caller can decide. A transaction whose hex cannot be encoded is Rejected without a call: it
     * cannot have been relayed, and a node would refuse it too.
     */
    const broadcast: Chain.ChainService["broadcast"] = (transaction) =>
      Option.match(signedTransactionHex(transaction.rawDataHex, transaction.signatures), {
        onNone: () =>
          Effect.succeed<Chain.BroadcastOutcome>({
            _tag: "Rejected",
            code: "MALFORMED_TRANSACTION",
            message: "raw_data and signatures must be even-length hex"
          }),
        onSome: (hex) =>
          node.post("/wallet/broadcasthex", { transaction: hex }, { once: true }).pipe(
            Effect.catchTag("ChainRejected", (error) => Effect.fail(new Chain.ChainUnavailable({ reason: error.reason }))),
            Effect.flatMap(broadcastOutcome)
          )
      })

    const receipt: Chain.ChainService["receipt"] = (txid) =>
      Effect.gen(function*() {
        if (!txidPattern.test(txid)) return yield* rejected(`not a transaction id: ${txid}`)
        const path = "/walletsolidity/gettransactioninfobyid"
        const json = yield* node.post(path, { value: txid.toLowerCase() })
        if (isUnknownObject(json)) return Option.none()
        return Option.some(toReceipt(yield* decodeReply(TransactionInfo, path)(json)))
      })

    return {
      headBlock: latestBlock("/wallet/getblock"),
      solidifiedBlock: latestBlock("/walletsolidity/getblock"),
      blockTransfers,
      account,
      balances,
      usdtBalance: usdt.balanceOf,
      trxBalance,
      resources,
      parameters,
      isBlackListed: usdt.isBlackListed,
      estimateTransferEnergy: usdt.estimateTransferEnergy,
      buildUsdtTransfer: usdt.buildUsdtTransfer,
      broadcast,
      receipt,
      ...stake
    }
  })

/** The Chain of one network's node. */
export const layer = (config: NodeConfig): Layer.Layer<Chain.Chain, never, HttpClient.HttpClient> => Layer.effect(Chain.Chain, make(config))

/** The Chain of `network` with the settings of `config` (by default its TRON_* variables, see `nodeConfig`). */
export const layerConfig = (
  network: Kernel.Network,
  config: Config.Config<NodeConfig> = nodeConfig(network)
): Layer.Layer<Chain.Chain, ConfigError.ConfigError, HttpClient.HttpClient> => Layer.effect(Chain.Chain, Effect.flatMap(config, make))
