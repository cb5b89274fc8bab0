import { Effect } from "effect"
import { canonicalTokenTransfers } from "../CanonicalTransfers.js"
import type { AdapterPlant } from "./AdapterPlant.js"

/**
 * Planted defect `receipt-contract` (the node adapter): the USDT filter is applied to the
 * receipt, not to each log. A receipt with any USDT log is taken as USDT throughout, so another
 * token's Transfer in the same transaction (a swap's, a router's) becomes a deposit too.
 */
export const plant: AdapterPlant = ({ chain, provider, sim }) => ({
  provider,
  chain: {
    ...chain,
    blockTransfers: (number) =>
      Effect.flatMap(chain.blockTransfers(number), (read) =>
        Effect.map(sim.state, (state) => {
          const block = state.blocks.find((b) => b.number === number)
          if (block === undefined || block.blockId !== read.block.hash) return read
          const usdtTxids = new Set(read.transfers.map((t) => t.txid))
          const sameReceipt = canonicalTokenTransfers({ ...state, blocks: [block] })
            .filter((t) => t.contract !== state.config.usdtContract && usdtTxids.has(t.txid))
            .map(({ amount, contract, from, logIndex, to, txid }) => ({ txid, logIndex, from, to, amount, contract }))
          return { ...read, transfers: [...read.transfers, ...sameReceipt] }
        }))
  }
})
