import { TransactionRaw } from "@collector/tron"
import { Clock, Effect, Either, Option } from "effect"
import { accountJson, accountResourceJson, chainParametersJson } from "./AccountJson.js"
import { blockJson, signedTransactionJson, transactionJson } from "./BlockJson.js"
import { estimateEnergy, triggerConstantContract, triggerSmartContract } from "./ContractCalls.js"
import { infoJson } from "./InfoJson.js"
import { bytesText, compact, errorReply, isVisible, stringify } from "./NodeJson.js"
import { addressField, type Body, intField, parseBody, stringField } from "./RequestBody.js"
import type { SimBlock } from "./SimBlock.js"
import type { SimChain } from "./SimChain.js"
import { decodeSigned, signedHex } from "./SimTransaction.js"
import { blockById, blockByNumber, head, type Inclusion, inclusionOf, type SimState, solidified } from "./SimState.js"
import { delegateResource, freezeBalanceV2, unDelegateResource, unfreezeBalanceV2 } from "./StakeBuilders.js"
import { canDelegatedMaxSize, delegatedResourceAccountIndexV2, delegatedResourceV2 } from "./StakeQueries.js"
import { account } from "./WorldState.js"

/**
 * java-tron's `/wallet/*` and `/walletsolidity/*` endpoints over a SimChain. The solidity
 * variants see the chain only up to the solidified block; endpoints java-tron's solidity node
 * does not serve (getaccountresource, the builders, broadcast) are not found there either.
 */

interface WalletRequest {
  readonly state: SimState
  readonly body: Body
  readonly visible: boolean
  readonly solidity: boolean
  readonly now: number
}

type Handler = (request: WalletRequest, chain: SimChain) => Effect.Effect<unknown>

const pure = (f: (request: WalletRequest) => unknown): Handler => (request) => Effect.sync(() => f(request))

const illegal = (text: string) => errorReply("java.lang.IllegalArgumentException", text)

/** The newest block this view serves. */
const topOf = (request: WalletRequest): SimBlock => (request.solidity ? solidified(request.state) : head(request.state))

const visibleBlock = (request: WalletRequest, number: bigint): Option.Option<SimBlock> =>
  number > topOf(request).number ? Option.none() : blockByNumber(request.state, number)

const getBlock = pure((request) => {
  const detail = request.body["detail"] === true || request.body["detail"] === "true"
  const render = (block: SimBlock) => blockJson(block, { detail, visible: request.visible })
  const idOrNum = stringField(request.body, "id_or_num")
  if (idOrNum === "") return render(topOf(request))
  if (/^\d{1,19}$/.test(idOrNum)) return Option.match(visibleBlock(request, BigInt(idOrNum)), { onNone: () => ({}), onSome: render })
  if (!/^[0-9a-fA-F]{64}$/.test(idOrNum) || BigInt("0x" + idOrNum.slice(0, 16)) > topOf(request).number) return illegal("id must be legal block hash.")
  return Option.match(blockById(request.state, idOrNum), { onNone: () => ({}), onSome: render })
})

const withNumber = (request: WalletRequest, f: (number: bigint) => unknown) =>
  Either.match(intField(request.body, "num"), { onLeft: (error) => error, onRight: f })

const getBlockByNum = pure((request) =>
  withNumber(request, (number) =>
    Option.match(visibleBlock(request, number), { onNone: () => ({}), onSome: (block) => blockJson(block, { detail: true, visible: request.visible }) })))

const getTransactionInfoByBlockNum = pure((request) =>
  withNumber(request, (number) =>
    number <= 0n ? {} : Option.match(visibleBlock(request, number), {
      onNone: () => [],
      onSome: (block) => block.transactions.map(({ info }) => infoJson(info, request.visible))
    })))

/** The including block of `value` within this view, or `{}`. */
const byTransactionId = (render: (found: Inclusion, visible: boolean) => unknown) =>
  pure((request) =>
    Option.match(
      Option.filter(inclusionOf(request.state, stringField(request.body, "value")), ({ block }) => block.number <= topOf(request).number),
      { onNone: () => ({}), onSome: (found) => render(found, request.visible) }
    ))

const getAccount = pure((request) =>
  Either.match(addressField(request.body, "address", request.visible), {
    onLeft: (error) => error,
    onRight: (address) => Option.match(account(topOf(request).world, address), { onNone: () => ({}), onSome: (found) => accountJson(found, request.visible) })
  }))

const getAccountResource = pure((request) =>
  Either.match(addressField(request.body, "address", request.visible), {
    onLeft: (error) => error,
    onRight: (address) =>
      Option.match(account(head(request.state).world, address), {
        onNone: () => ({}),
        onSome: (found) => accountResourceJson(found, request.state.parameters, request.now)
      })
  }))

const builder = (build: (state: SimState, body: Body, visible: boolean, now: number) => unknown): Handler =>
  pure((request) => build(request.state, request.body, request.visible, request.now))

/** `broadcasthex` prints every field of its Return, the message as text, and echoes the transaction. */
const broadcastHex: Handler = (request, chain) => {
  const hex = stringField(request.body, "transaction")
  return Effect.map(Effect.either(chain.broadcastHex(hex)), (outcome) => {
    const failure = Either.getLeft(outcome)
    if (Option.isSome(failure) && failure.value._tag === "MalformedRequest") return errorReply(failure.value.exception, failure.value.reason)
    const tx = Either.getOrThrow(decodeSigned(hex))
    const echo = { transaction: stringify(signedTransactionJson(tx)), txid: tx.txid }
    return Option.isSome(failure) && failure.value._tag === "TransactionRejected"
      ? { result: false, code: failure.value.code, message: failure.value.message, ...echo }
      : { result: true, code: "SUCCESS", message: "", ...echo }
  })
}

/** `broadcasttransaction` takes the JSON form and prints its Return the protobuf way (defaults left out, message hex). */
const broadcastTransaction: Handler = (request, chain) => {
  const raw = TransactionRaw.encodeRawData(request.body["raw_data"] as TransactionRaw.RawData)
  if (Either.isLeft(raw)) return Effect.succeed(illegal(raw.left.reason))
  const signatures = Array.isArray(request.body["signature"]) ? request.body["signature"].map(String) : []
  const hex = signedHex({ rawDataHex: Buffer.from(raw.right).toString("hex"), signatures })
  const txid = Either.getOrThrow(decodeSigned(hex)).txid
  return Effect.map(Effect.either(chain.broadcastHex(hex)), (outcome) =>
    Either.isRight(outcome)
      ? { result: true, txid }
      : outcome.left._tag === "MalformedRequest"
      ? errorReply(outcome.left.exception, outcome.left.reason)
      : compact({ code: outcome.left.code, message: bytesText(outcome.left.message, request.visible), txid }))
}

interface Route {
  readonly handler: Handler
  /** Also served under /walletsolidity. */
  readonly solidity: boolean
}

const routes: Readonly<Record<string, Route>> = {
  getnowblock: { handler: pure((request) => blockJson(topOf(request), { detail: true, visible: request.visible })), solidity: true },
  getblock: { handler: getBlock, solidity: true },
  getblockbynum: { handler: getBlockByNum, solidity: true },
  gettransactioninfobyblocknum: { handler: getTransactionInfoByBlockNum, solidity: true },
  gettransactioninfobyid: { handler: byTransactionId(({ included }, visible) => infoJson(included.info, visible)), solidity: true },
  gettransactionbyid: { handler: byTransactionId(({ included }, visible) => transactionJson(included, visible)), solidity: true },
  getaccount: { handler: getAccount, solidity: true },
  getaccountresource: { handler: getAccountResource, solidity: false },
  triggerconstantcontract: {
    handler: pure((request) => triggerConstantContract(request.state, request.body, request.visible, request.solidity, request.now)),
    solidity: true
  },
  estimateenergy: { handler: pure((request) => estimateEnergy(request.state, request.body, request.visible, request.solidity)), solidity: true },
  triggersmartcontract: { handler: pure((request) => triggerSmartContract(request.state, request.body, request.visible, request.now)), solidity: false },
  broadcasthex: { handler: broadcastHex, solidity: false },
  broadcasttransaction: { handler: broadcastTransaction, solidity: false },
  getchainparameters: { handler: pure((request) => chainParametersJson(request.state.parameters)), solidity: false },
  // Stake 2.0: builders on the full node only, queries on both (as java-tron serves them).
  freezebalancev2: { handler: builder(freezeBalanceV2), solidity: false },
  unfreezebalancev2: { handler: builder(unfreezeBalanceV2), solidity: false },
  delegateresource: { handler: builder(delegateResource), solidity: false },
  undelegateresource: { handler: builder(unDelegateResource), solidity: false },
  getdelegatedresourcev2: { handler: pure((request) => delegatedResourceV2(topOf(request).world, request.body, request.visible)), solidity: true },
  getdelegatedresourceaccountindexv2: {
    handler: pure((request) => delegatedResourceAccountIndexV2(topOf(request).world, request.body, request.visible)),
    solidity: true
  },
  getcandelegatedmaxsize: {
    handler: pure((request) => canDelegatedMaxSize(topOf(request).world, request.body, request.visible, request.state.parameters, request.now)),
    solidity: true
  }
}

/** The reply to a node API request (JSON value), or None for a path java-tron does not serve. */
export const handleWallet = (chain: SimChain, path: string, bodyText: string): Effect.Effect<Option.Option<unknown>> =>
  Effect.gen(function*() {
    const match = /^\/(wallet|walletsolidity)\/([a-z0-9]+)$/.exec(path)
    const route = match !== null && Object.hasOwn(routes, match[2]!) ? routes[match[2]!] : undefined
    const solidity = match?.[1] === "walletsolidity"
    if (route === undefined || (solidity && !route.solidity)) return Option.none()
    const body = parseBody(bodyText)
    if (Either.isLeft(body)) return Option.some<unknown>(body.left)
    const request = { state: yield* chain.state, body: body.right, visible: isVisible(body.right), solidity, now: yield* Clock.currentTimeMillis }
    return Option.some(yield* route.handler(request, chain))
  })
