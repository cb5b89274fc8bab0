import { TronAddress } from "@collector/tron"
import type { SimState } from "@collector/tron-sim"
import { HashMap, Option } from "effect"

/** What an account has lent on the simulator's canonical chain, read from its blocks and its world state. */
export interface DelegationFacts {
  /** Energy stake (SUN) still delegated out at the head, per receiver (Base58Check); only receivers with some. */
  readonly outstanding: ReadonlyArray<{ readonly receiver: string; readonly sun: bigint }>
  /** Each successful DelegateResourceContract the account signed on the canonical chain. */
  readonly delegations: ReadonlyArray<{ readonly txid: string; readonly receiver: string; readonly blockNumber: bigint }>
}

const base58 = (hex: string) => Option.getOrElse(TronAddress.fromHex(hex), () => hex)

/**
 * `owner`'s delegations as the chain shows them, never through the node adapter under test: the
 * head block's world (what is lent now) and every canonical block's transactions (what was lent).
 */
export const canonicalDelegations = (state: SimState.SimState, owner: string): DelegationFacts => {
  const ownerHex = Option.getOrThrow(TronAddress.toHex(owner)).toLowerCase()
  const head = state.blocks.at(-1)!
  const outstanding = [...HashMap.values(head.world.delegations)]
    .filter((d) => d.from.toLowerCase() === ownerHex && d.energy > 0n)
    .map((d) => ({ receiver: base58(d.to), sun: d.energy }))
  const delegations: Array<DelegationFacts["delegations"][number]> = []
  for (const block of state.blocks) {
    for (const { info, tx } of block.transactions) {
      const contract = tx.raw.contract[0]
      if (contract?.type !== "DelegateResourceContract" || info.contractRet !== "SUCCESS") continue
      const value = contract.parameter.value
      if (value.owner_address.toLowerCase() !== ownerHex) continue
      delegations.push({ txid: tx.txid, receiver: base58(value.receiver_address), blockNumber: block.number })
    }
  }
  return { outstanding, delegations }
}
