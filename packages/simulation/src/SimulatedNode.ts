import { Chain } from "@collector/core"
import { type NodeConfig, TronNodeChain } from "@collector/tron-node"
import { HttpClient, HttpClientError } from "@effect/platform"
import { createHash } from "node:crypto"
import { Duration, Effect, Option } from "effect"
import type { PathCounts } from "./workload/PathCounts.js"

/**
 * What is wrong with one node of a network's set, if anything: its head `blocks` behind the
 * network's (more than the failover's lag limit), serving another fork above `from` (another
 * block, with a hash of its own and some transfers left out, at each height above it and above
 * the solidified block), or down (refusing connections, or holding every request past the
 * adapter's timeout).
 */
export type NodeFault =
  | { readonly _tag: "lagging"; readonly blocks: bigint }
  | { readonly _tag: "forked"; readonly from: bigint; readonly salt: string }
  | { readonly _tag: "down"; readonly mode: "refuse" | "timeout" }

/** Longer than the node adapter's request timeout in a run, so a held request is cut by the adapter. */
const heldMillis = 60_000

const digest = (text: string) => createHash("sha256").update(text).digest("hex")

/**
 * One of a network's several nodes in a run: the production node adapter over its own line to the
 * network's one simulator (every node sees the same canonical chain and the same broadcasts),
 * with this node's fault in front of it. The engines reach the nodes through the core's failover
 * (`failoverChain`), as production does with `TRON_<NETWORK>_NODE_URLS`. The faults of the
 * simulator itself (outages, slow and lost replies) still hit every node at once, as before.
 * A lagging or forked node answers the account and resource reads as the others do: what it
 * gets wrong is the chain's blocks, which is what the failover has to see through.
 */
export class SimulatedNode {
  private current: NodeFault | undefined = undefined

  private constructor(
    readonly name: string,
    private readonly network: string,
    private readonly genesis: bigint,
    private readonly paths: PathCounts
  ) {}

  /** The node `index` of `network` (whose chain starts at `genesis`), speaking to the simulator over `client` with `config`. */
  static make(index: number, network: string, genesis: bigint, config: NodeConfig, client: HttpClient.HttpClient, paths: PathCounts) {
    return Effect.gen(function*() {
      const node = new SimulatedNode(`${index}:sim-${index}`, network, genesis, paths)
      const adapter = yield* TronNodeChain.make(config).pipe(Effect.provideService(HttpClient.HttpClient, node.line(client)))
      return { node, chainNode: { name: node.name, chain: node.faulty(adapter) } satisfies Chain.ChainNode }
    })
  }

  get fault(): NodeFault | undefined {
    return this.current
  }

  set fault(fault: NodeFault | undefined) {
    this.current = fault
  }

  /** `client` with the node down in front of it: a refused connection at once, or no answer before the adapter gives up. */
  private line(client: HttpClient.HttpClient): HttpClient.HttpClient {
    return HttpClient.make((request) => {
      const fault = this.current
      if (fault?._tag !== "down") return client.execute(request)
      this.paths.count(`node.down.${this.network}`)
      const refused = new HttpClientError.RequestError({ request, reason: "Transport", description: `node ${this.name} refused the connection` })
      return fault.mode === "refuse" ? Effect.fail(refused) : Effect.zipRight(Effect.sleep(Duration.millis(heldMillis)), Effect.fail(refused))
    })
  }

  /** `blocks` below `number`, but never below the genesis: a node far behind is still syncing from it. */
  private behind(number: bigint, blocks: bigint): bigint {
    return number - blocks > this.genesis ? number - blocks : this.genesis
  }

  /** The adapter's answers as a lagging or forked node gives them. */
  private faulty(chain: Chain.ChainService): Chain.ChainService {
    const self = this
    /** The highest block this node has while it lags (undefined when it does not). */
    const laggedHead = Effect.gen(function*() {
      const fault = self.current
      if (fault?._tag !== "lagging") return undefined
      return self.behind((yield* chain.headBlock).number, fault.blocks)
    })
    const blockAt = (number: bigint) =>
      chain.blockTransfers(number).pipe(
        Effect.map((b) => b.block),
        Effect.catchTag("BlockNotFound", () => new Chain.ChainUnavailable({ reason: `node ${self.name} has no block ${number} yet` }))
      )
    /** The first forked height: above the fork's start and above the solidified block (a fork never reaches below it). */
    const forkedAbove = Effect.gen(function*() {
      const fault = self.current
      if (fault?._tag !== "forked") return undefined
      const solidified = (yield* chain.solidifiedBlock).number
      return { above: fault.from > solidified ? fault.from : solidified, salt: fault.salt }
    })
    const forkHash = (hash: string, salt: string) => hash.slice(0, 16) + digest(`${salt}/${hash}`).slice(0, 48)
    const leftOut = (txid: string, salt: string) => parseInt(digest(`${salt}/${txid}`).slice(0, 2), 16) % 2 === 1

    return {
      ...chain,
      headBlock: Effect.gen(function*() {
        const lagged = yield* laggedHead
        if (lagged !== undefined) {
          self.paths.count(`node.lagging.${self.network}`)
          return yield* blockAt(lagged)
        }
        const head = yield* chain.headBlock
        const fork = yield* forkedAbove
        if (fork === undefined || head.number <= fork.above) return head
        return { ...head, hash: forkHash(head.hash, fork.salt), parentHash: head.number - 1n > fork.above ? forkHash(head.parentHash, fork.salt) : head.parentHash }
      }),
      solidifiedBlock: Effect.gen(function*() {
        const solidified = yield* chain.solidifiedBlock
        const fault = self.current
        return fault?._tag === "lagging" ? yield* blockAt(self.behind(solidified.number, fault.blocks)) : solidified
      }),
      blockTransfers: (number) =>
        Effect.gen(function*() {
          const lagged = yield* laggedHead
          if (lagged !== undefined && number > lagged) return yield* new Chain.BlockNotFound({ number })
          const block = yield* chain.blockTransfers(number)
          const fork = yield* forkedAbove
          if (fork === undefined || number <= fork.above) return block
          self.paths.count(`node.forked.${self.network}`)
          const { hash, parentHash } = block.block
          return {
            block: { ...block.block, hash: forkHash(hash, fork.salt), parentHash: number - 1n > fork.above ? forkHash(parentHash, fork.salt) : parentHash },
            transfers: block.transfers.filter((t) => !leftOut(t.txid, fork.salt))
          }
        }),
      receipt: (txid) =>
        Effect.gen(function*() {
          const receipt = yield* chain.receipt(txid)
          if (Option.isNone(receipt)) return receipt
          // Receipts come from the node's solidified view (`walletsolidity`), which lags as much as its head.
          const fault = self.current
          if (fault?._tag === "lagging" && receipt.value.blockNumber > self.behind((yield* chain.solidifiedBlock).number, fault.blocks)) return Option.none()
          const fork = yield* forkedAbove
          if (fork !== undefined && receipt.value.blockNumber > fork.above && leftOut(txid, fork.salt)) return Option.none()
          return receipt
        })
    }
  }
}
