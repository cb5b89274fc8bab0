import { Effect } from "effect"
import type { AdapterPlant } from "./AdapterPlant.js"

/**
 * Planted defect `rental-renumber` (the energy provider adapter): each order call sends our order
 * number with the call's count appended (made "unique" against the provider's duplicate check), so
 * a retried order is a second order and the provider's book names numbers no task stored.
 */
export const plant: AdapterPlant = ({ chain, provider }) => {
  let calls = 0
  return {
    chain,
    provider: { ...provider, order: (orderId, request) => Effect.suspend(() => provider.order(`${orderId}-${++calls}`, request)) }
  }
}
