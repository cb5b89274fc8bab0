import type { SimProvider, SimulatedChain } from "@collector/tron-sim"
import { TronAddress } from "@collector/tron"
import { Effect, Option } from "effect"

/**
 * What the chain and the providers recorded for a bench's sweeps, read without the service's code:
 * the fees on the receipts of every transaction the wallets sent (java-tron's `fee`: energy,
 * bandwidth and account creation burned), the energy they used, the fees on the receipts of every
 * transaction the resource accounts sent (their delegations and reclaims), and the cost of every
 * order in the providers' own books (failed orders cost nothing).
 */
export interface FeeChainReference {
  readonly sweepTransactions: number
  readonly burned: bigint
  readonly lendingTransactions: number
  readonly lendingBurned: bigint
  readonly energyUsed: bigint
  readonly providerCost: bigint
  readonly ordersByProvider: Record<string, number>
}

export const feeChainReference = (
  chain: SimulatedChain,
  walletAddresses: ReadonlyArray<string>,
  providers: Record<string, SimProvider>,
  lenderAddresses: ReadonlyArray<string> = []
): Effect.Effect<FeeChainReference> =>
  Effect.gen(function*() {
    const hex = (addresses: ReadonlyArray<string>) => new Set(addresses.map((a) => Option.getOrThrow(TronAddress.toHex(a))))
    const owners = hex(walletAddresses)
    const lenders = hex(lenderAddresses)
    const state = yield* chain.state
    let sweepTransactions = 0
    let burned = 0n
    let energyUsed = 0n
    let lendingTransactions = 0
    let lendingBurned = 0n
    for (const block of state.blocks) {
      for (const included of block.transactions) {
        const owner = (included.tx.raw.contract[0]?.parameter.value as { owner_address?: string } | undefined)?.owner_address
        if (included.system || owner === undefined) continue
        if (lenders.has(owner)) {
          lendingTransactions++
          lendingBurned += included.info.fee
        }
        if (!owners.has(owner)) continue
        sweepTransactions++
        burned += included.info.fee
        energyUsed += included.info.receipt.energyUsageTotal
      }
    }
    let providerCost = 0n
    const ordersByProvider: Record<string, number> = {}
    for (const [name, provider] of Object.entries(providers)) {
      const orders = yield* provider.orders
      ordersByProvider[name] = orders.length
      for (const o of orders) providerCost += o.cost + o.activationCost
    }
    return { sweepTransactions, burned, lendingTransactions, lendingBurned, energyUsed, providerCost, ordersByProvider }
  })
