import type { Snapshot } from "../Snapshot.js"
import type { ChainFacts } from "./SweepsOnChain.js"

/**
 * No tenant wallet sent more USDT than it held: its running balance over the canonical chain's
 * Transfer logs, in chain order, never falls below zero (a wallet starts empty: its address is
 * new).
 */
export const noOverdraft = (snapshot: Snapshot, chain: ChainFacts): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const wallets = new Set(snapshot.wallets.filter((w) => w.network === chain.network).map((w) => w.address))
  const balances = new Map<string, bigint>()
  for (const transfer of chain.transfers) {
    if (wallets.has(transfer.from)) {
      const held = balances.get(transfer.from) ?? 0n
      if (held < transfer.amount) {
        violations.push(
          `${chain.network}: wallet ${transfer.from} sent ${transfer.amount} holding ${held} (${transfer.txid}:${transfer.logIndex} in block ${transfer.blockNumber})`
        )
      }
      balances.set(transfer.from, held - transfer.amount)
    }
    if (wallets.has(transfer.to)) balances.set(transfer.to, (balances.get(transfer.to) ?? 0n) + transfer.amount)
  }
  return violations
}
