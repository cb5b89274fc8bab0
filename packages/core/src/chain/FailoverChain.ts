import { Context, Duration, Effect, Either, Metric, Option, Ref } from "effect"
import type { Network } from "../kernel/Network.js"
import type { ChainService } from "./Chain.js"
import { ChainUnavailable } from "./ChainErrors.js"
import type { BlockRef, Receipt } from "./ChainModel.js"
import { defaultNodeHealthOptions, makeNodeHealth, type NodeHealthOptions } from "./NodeHealth.js"
import { nodeDisagreements, nodeFailovers, nodeUp } from "./NodeFailoverMetrics.js"
import { blockDisagreement } from "./BlockAgreement.js"

/** One node of a network: its label (position and host, never a URL) and its adapter. */
export interface ChainNode {
  readonly name: string
  readonly chain: ChainService
}

export interface FailoverChainOptions extends NodeHealthOptions {
  /** How long one node may take to answer one call before it counts as unavailable. */
  readonly answerTimeout: Duration.DurationInput
  /**
   * Each block read for booking is read from two nodes and used only when they agree (hash,
   * parent and USDT transfers); otherwise the call fails as unavailable, so its bookings wait.
   */
  readonly crossCheck: boolean
}

/** Above a node adapter's own request timeout with its retries, so the adapter gives up first. */
export const defaultFailoverChainOptions: FailoverChainOptions = { ...defaultNodeHealthOptions, answerTimeout: Duration.seconds(60), crossCheck: false }

/** The Chain port over several nodes, with what readiness reports of them. */
export interface FailoverChain {
  readonly chain: ChainService
  /** How many of the nodes serve calls now (not resting), out of how many. */
  readonly nodesHealthy: Effect.Effect<{ readonly healthy: number; readonly total: number }>
}

/** The network's nodes behind its `Chain`, for readiness to say how many serve. */
export class ChainNodes extends Context.Tag("@collector/core/ChainNodes")<ChainNodes, FailoverChain>() {}

const isUnavailable = (error: unknown): error is ChainUnavailable => error instanceof ChainUnavailable

const joined = (failures: ReadonlyArray<string>) => failures.join("; ")

/**
 * The Chain port over an ordered list of nodes of one network (the operator's preference order).
 *
 * - Every call goes to the first node that is not resting (`NodeHealth`); a node that fails with
 *   ChainUnavailable or does not answer within `answerTimeout` rests, and the call goes to the
 *   next. A refusal (ChainRejected, BlockNotFound) is the node's answer and is returned as is:
 *   another node would refuse the same request.
 * - `headBlock` asks every node not resting, side by side, so one that falls more than
 *   `maxLagBlocks` behind the best head is noticed and rests. Neither the head nor the
 *   solidified block answered ever goes below one answered before while a node still has it: the
 *   scanner would otherwise step back because one node is behind.
 * - `broadcast` goes to one node; on ChainUnavailable the same signed transaction (same txid) goes
 *   to the next, which is safe: the network takes a txid at most once.
 * - `receipt` answers the first receipt found, asking the next node while one knows none (a
 *   transaction broadcast through one node may not have reached the other's view yet).
 *
 * With one node the node's adapter is returned as it is.
 */
export const failoverChain = (
  network: Network,
  nodes: ReadonlyArray<ChainNode>,
  options: FailoverChainOptions = defaultFailoverChainOptions
): Effect.Effect<FailoverChain> =>
  Effect.gen(function*() {
    const names = nodes.map((n) => n.name)
    const health = yield* makeNodeHealth(names, options, (node, up, reason) =>
      Effect.zipRight(
        Metric.set(nodeUp(network, names[node]!), up ? 1 : 0),
        reason === undefined ? Effect.void : Metric.increment(nodeFailovers(network, names[node]!, reason))
      ))
    const nodesHealthy = Effect.map(health.healthyCount, (healthy) => ({ healthy, total: nodes.length }))
    if (nodes.length === 1) return { chain: nodes[0]!.chain, nodesHealthy }
    // Only a network with several nodes has a node_up series: one node is not failed over.
    yield* Effect.forEach(names, (name) => Metric.set(nodeUp(network, name), 1))

    const timeout = Duration.decode(options.answerTimeout)
    const within = <A, E>(node: number, effect: Effect.Effect<A, E>) =>
      Effect.timeoutFail(effect, {
        duration: timeout,
        onTimeout: () => new ChainUnavailable({ reason: `${names[node]}: no answer within ${Duration.format(timeout)}` })
      })

    /** Asks the nodes in health order (but `skip`) until one answers, with which; ChainUnavailable only when none did. */
    const answerOf = <A, E>(call: (chain: ChainService) => Effect.Effect<A, E>, skip?: number): Effect.Effect<{ readonly node: number; readonly value: A }, E | ChainUnavailable> =>
      Effect.gen(function*() {
        const failures: Array<string> = []
        for (const i of yield* health.candidates) {
          if (i === skip) continue
          const answer = yield* Effect.either(within(i, call(nodes[i]!.chain)))
          if (Either.isRight(answer)) return { node: i, value: answer.right }
          if (!isUnavailable(answer.left)) return yield* Effect.fail(answer.left)
          failures.push(`${names[i]}: ${answer.left.reason}`)
          yield* health.fault(i, "unavailable", answer.left.reason)
        }
        return yield* new ChainUnavailable({ reason: failures.length === 0 ? "no other node serves" : joined(failures) })
      })

    const firstAnswer = <A, E>(call: (chain: ChainService) => Effect.Effect<A, E>): Effect.Effect<A, E | ChainUnavailable> =>
      Effect.map(answerOf(call), (answer) => answer.value)

    /**
     * The block from the first node that answers, checked against a second node's reading. Until
     * a second node answers and agrees, the call fails as unavailable: the scanner tries again
     * later and nothing of the block is booked meanwhile. A disagreement is counted and logged.
     */
    const crossCheckedTransfers = (number: bigint) =>
      Effect.gen(function*() {
        const first = yield* answerOf((c) => c.blockTransfers(number))
        const second = yield* answerOf((c) => c.blockTransfers(number), first.node).pipe(
          Effect.catchAll((error) =>
            new ChainUnavailable({ reason: `block ${number} cannot be cross-checked yet: ${"reason" in error ? error.reason : error._tag}` }))
        )
        const differs = blockDisagreement(first.value, second.value)
        if (differs === null) return first.value
        const reason = `nodes ${names[first.node]} and ${names[second.node]} disagree on block ${number}: ${differs}; its bookings wait until they agree`
        yield* Metric.increment(nodeDisagreements(network))
        yield* Effect.logError(reason)
        return yield* new ChainUnavailable({ reason })
      })

    // The highest head and solidified block answered so far: neither is ever answered lower while a node has it.
    const highestHead = yield* Ref.make<BlockRef | undefined>(undefined)
    const highestSolidified = yield* Ref.make<BlockRef | undefined>(undefined)

    /** Keeps `answer` when it does not step back; otherwise the first node (in order) at or above the highest, else the highest of `answers`. */
    const notBelow = (highest: Ref.Ref<BlockRef | undefined>, answers: ReadonlyArray<BlockRef>) =>
      Ref.modify(highest, (before) => {
        const floor = before?.number ?? -1n
        const chosen = answers.find((block) => block.number >= floor) ??
          answers.reduce((best, block) => (block.number > best.number ? block : best))
        return [chosen, before === undefined || chosen.number > before.number ? chosen : before]
      })

    const headBlock: ChainService["headBlock"] = Effect.gen(function*() {
      const asked = yield* health.candidates
      const answers = yield* Effect.forEach(asked, (i) => Effect.either(within(i, nodes[i]!.chain.headBlock)), { concurrency: "unbounded" })
      const heads: Array<{ readonly node: number; readonly block: BlockRef }> = []
      const failures: Array<string> = []
      for (const [k, answer] of answers.entries()) {
        const i = asked[k]!
        if (Either.isRight(answer)) heads.push({ node: i, block: answer.right })
        else {
          failures.push(`${names[i]}: ${answer.left.reason}`)
          if (isUnavailable(answer.left)) yield* health.fault(i, "unavailable", answer.left.reason)
        }
      }
      // The best head first, so every node is measured against the best of this round.
      for (const { node, block } of [...heads].sort((a, b) => (a.block.number > b.block.number ? -1 : 1))) {
        yield* health.sawHead(node, block.number)
      }
      if (heads.length === 0) {
        const rejected = answers.find((a) => Either.isLeft(a) && !isUnavailable(a.left))
        if (rejected !== undefined && Either.isLeft(rejected)) return yield* Effect.fail(rejected.left)
        return yield* new ChainUnavailable({ reason: joined(failures) })
      }
      const current = yield* health.candidates
      // The answers of the nodes still serving, in order; every answer when none is (all lag behind one that failed since).
      const serving = heads.filter((h) => current.includes(h.node))
      return yield* notBelow(highestHead, (serving.length > 0 ? serving : heads).map((h) => h.block))
    })

    const solidifiedBlock: ChainService["solidifiedBlock"] = Effect.gen(function*() {
      const first = yield* firstAnswer((chain) => chain.solidifiedBlock)
      const before = yield* Ref.get(highestSolidified)
      if (before === undefined || first.number >= before.number) return yield* notBelow(highestSolidified, [first])
      // This node is behind what was answered before: another node may have it.
      const others = yield* Effect.forEach(yield* health.candidates, (i) => Effect.option(within(i, nodes[i]!.chain.solidifiedBlock)))
      return yield* notBelow(highestSolidified, [first, ...others.flatMap(Option.toArray)].sort((a, b) => (a.number > b.number ? -1 : 1)))
    })

    const receipt: ChainService["receipt"] = (txid) =>
      Effect.gen(function*() {
        const failures: Array<string> = []
        for (const i of yield* health.candidates) {
          const answer = yield* Effect.either(within(i, nodes[i]!.chain.receipt(txid)))
          if (Either.isRight(answer)) {
            if (Option.isSome(answer.right)) return answer.right
            continue
          }
          if (!isUnavailable(answer.left)) return yield* Effect.fail(answer.left)
          failures.push(`${names[i]}: ${answer.left.reason}`)
          yield* health.fault(i, "unavailable", answer.left.reason)
        }
        // A node that could not be asked may know the transaction: "unknown" would be a guess.
        if (failures.length > 0) return yield* new ChainUnavailable({ reason: joined(failures) })
        return Option.none<Receipt>()
      })

    const chain: ChainService = {
      headBlock,
      solidifiedBlock,
      blockTransfers: (number) => options.crossCheck ? crossCheckedTransfers(number) : firstAnswer((c) => c.blockTransfers(number)),
      account: (address, solidified) => firstAnswer((c) => c.account(address, solidified)),
      balances: (address, solidified) => firstAnswer((c) => c.balances(address, solidified)),
      usdtBalance: (address) => firstAnswer((c) => c.usdtBalance(address)),
      trxBalance: (address) => firstAnswer((c) => c.trxBalance(address)),
      resources: (address) => firstAnswer((c) => c.resources(address)),
      parameters: firstAnswer((c) => c.parameters),
      isBlackListed: (address) => firstAnswer((c) => c.isBlackListed(address)),
      estimateTransferEnergy: (transfer) => firstAnswer((c) => c.estimateTransferEnergy(transfer)),
      buildUsdtTransfer: (transfer) => firstAnswer((c) => c.buildUsdtTransfer(transfer)),
      broadcast: (transaction) => firstAnswer((c) => c.broadcast(transaction)),
      receipt,
      stakeTotals: (address) => firstAnswer((c) => c.stakeTotals(address)),
      energyStake: (owner) => firstAnswer((c) => c.energyStake(owner)),
      delegatableEnergyStake: (owner) => firstAnswer((c) => c.delegatableEnergyStake(owner)),
      lentEnergyStake: (loan) => firstAnswer((c) => c.lentEnergyStake(loan)),
      buildEnergyLoan: (loan, expiration) => firstAnswer((c) => c.buildEnergyLoan(loan, expiration)),
      buildEnergyReclaim: (loan, expiration) => firstAnswer((c) => c.buildEnergyReclaim(loan, expiration)),
      buildStake: (stake) => firstAnswer((c) => c.buildStake(stake)),
      buildUnstake: (stake) => firstAnswer((c) => c.buildUnstake(stake))
    }
    return { chain, nodesHealthy }
  })
