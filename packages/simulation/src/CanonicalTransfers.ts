import { TronAddress, Trc20Call } from "@collector/tron"
import type { SimState } from "@collector/tron-sim"
import { Option } from "effect"

/** A USDT Transfer log of a successful transaction on the simulator's canonical chain. */
export interface CanonicalTransfer {
  readonly txid: string
  readonly logIndex: number
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly from: string
  readonly to: string
  readonly amount: bigint
  /** The emitting contract (Base58Check). */
  readonly contract: string
  /** The block's time (milliseconds), as the block carries it. */
  readonly blockTime: number
}

const addressOf = (topic: string) => Option.getOrThrow(TronAddress.fromHex(topic.slice(-40)))

/**
 * Every Transfer log of any token contract on the simulator's canonical chain, read from its own
 * state (the blocks it produced and the logs it executed), never through the adapter under test.
 */
export const canonicalTokenTransfers = (state: SimState.SimState): ReadonlyArray<CanonicalTransfer> => {
  const out: Array<CanonicalTransfer> = []
  for (const block of state.blocks) {
    for (const { info, tx } of block.transactions) {
      if (info.contractRet !== "SUCCESS") continue
      info.logs.forEach((log, logIndex) => {
        if (log.topics[0]?.toLowerCase() !== Trc20Call.transferTopic || log.topics.length < 3) return
        out.push({
          contract: addressOf(log.address),
          blockTime: block.timestamp,
          txid: tx.txid,
          logIndex,
          blockNumber: block.number,
          blockHash: block.blockId,
          from: addressOf(log.topics[1]!),
          to: addressOf(log.topics[2]!),
          amount: BigInt(`0x${log.data}`)
        })
      })
    }
  }
  return out
}

/** Every USDT Transfer log on the simulator's canonical chain (`canonicalTokenTransfers` of its USDT contract). */
export const canonicalTransfers = (state: SimState.SimState): ReadonlyArray<CanonicalTransfer> =>
  canonicalTokenTransfers(state).filter((t) => t.contract === state.config.usdtContract)
