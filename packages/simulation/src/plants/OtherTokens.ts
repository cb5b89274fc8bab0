import { Effect } from "effect"
import { canonicalTokenTransfers } from "../CanonicalTransfers.js"
import type { AdapterPlant } from "./AdapterPlant.js"

/**
 * Planted defect `other-tokens` (the node adapter): a block's Transfer logs are kept whatever
 * contract emitted them (the filter on the USDT contract forgotten), so another token's transfer
 * into a wallet becomes a deposit.
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
          const all = canonicalTokenTransfers({ ...state, blocks: [block] })
          const others = all.filter((t) => t.contract !== state.config.usdtContract)
            .map(({ amount, contract, from, logIndex, to, txid }) => ({ txid, logIndex, from, to, amount, contract }))
          return { ...read, transfers: [...read.transfers, ...others] }
        }))
  }
})
