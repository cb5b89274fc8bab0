import type { Chain } from "@collector/core"
import { Effect } from "effect"
import { canonicalTokenTransfers } from "../CanonicalTransfers.js"
import type { AdapterPlant } from "./AdapterPlant.js"

/**
 * A node adapter that lets other tokens' Transfer logs through next to USDT's: those of each
 * block read that `letThrough` accepts, given the txids of the block's USDT transfers. The plants
 * differ only in which of them a tired filter would let pass.
 */
export const lettingOtherTokensThrough = (
  letThrough: (transfer: Chain.UsdtTransfer, usdtTxids: ReadonlySet<string>) => boolean
): AdapterPlant =>
({ chain, provider, sim }) => ({
  provider,
  chain: {
    ...chain,
    blockTransfers: (number) =>
      Effect.flatMap(chain.blockTransfers(number), (read) =>
        Effect.map(sim.state, (state) => {
          const block = state.blocks.find((b) => b.number === number)
          if (block === undefined || block.blockId !== read.block.hash) return read
          const usdtTxids = new Set(read.transfers.map((t) => t.txid))
          const others = canonicalTokenTransfers({ ...state, blocks: [block] })
            .filter((t) => t.contract !== state.config.usdtContract)
            .map(({ amount, contract, from, logIndex, to, txid }) => ({ txid, logIndex, from, to, amount, contract }))
            .filter((t) => letThrough(t, usdtTxids))
          return { ...read, transfers: [...read.transfers, ...others] }
        }))
  }
})
