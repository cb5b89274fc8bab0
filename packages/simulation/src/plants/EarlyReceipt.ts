import type { Chain } from "@collector/core"
import { Effect, Option } from "effect"
import type { AdapterPlant } from "./AdapterPlant.js"

/**
 * Planted defect `early-receipt` (the node adapter): a receipt the solidified node does not have
 * yet is looked up on the full node instead (a fallback meant for nodes without a solidity
 * API), so a sweep can end on a block a reorganisation may still remove.
 */
export const plant: AdapterPlant = ({ chain, provider, sim }) => ({
  provider,
  chain: {
    ...chain,
    receipt: (txid) =>
      Effect.flatMap(chain.receipt(txid), (solid) =>
        Option.isSome(solid) ? Effect.succeed(solid) : Effect.map(sim.state, (state): Option.Option<Chain.Receipt> => {
          for (const block of state.blocks) {
            const found = block.transactions.find(({ tx }) => tx.txid === txid)
            if (found === undefined) continue
            const { info } = found
            return Option.some({
              txid,
              blockNumber: block.number,
              blockTime: new Date(block.timestamp),
              result: info.contractRet as Chain.ReceiptResult,
              fee: info.fee,
              energyFee: info.receipt.energyFee,
              energyUsage: info.receipt.energyUsageTotal,
              bandwidthFee: info.receipt.netFee,
              bandwidthUsage: info.receipt.netUsage
            })
          }
          return Option.none()
        }))
  }
})
