import { TronAddress } from "@collector/tron"
import { Effect, Option, TestClock } from "effect"
import { energyLeft, freeNetUsed, type SimAccount } from "../SimAccount.js"
import { make, type SimChain } from "../SimChain.js"
import { defaultSimConfig, otherTokenHex, type SimConfig, usdtHex } from "../SimConfig.js"
import type { SimTransactionInfo } from "../SimTransactionInfo.js"
import { head, inclusionOf } from "../SimState.js"
import { account, tokenBalance } from "../WorldState.js"
import type { SimWallet } from "./SimWallet.js"

/** A realistic start time for TestClock (2026-06-01): blocks at 0 ms would look like a bug. */
export const startTime = Date.UTC(2026, 5, 1)

/** A nile simulator on TestClock set to `startTime`. */
export const testChain = (overrides: Partial<SimConfig> = {}) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(startTime)
    return yield* make(defaultSimConfig("nile", overrides))
  })

/** The head-state account of a wallet; fails the test when it does not exist. */
export const accountOf = (chain: SimChain, who: SimWallet): Effect.Effect<SimAccount> =>
  Effect.map(chain.state, (state) => Option.getOrThrow(account(head(state).world, who.hex)))

export const usdtOf = (chain: SimChain, hex: string): Effect.Effect<bigint> =>
  Effect.map(chain.state, (state) => tokenBalance(head(state).world, usdtHex(state.config), hex))

/** What `hex` holds of the other token at the head. */
export const otherTokenOf = (chain: SimChain, hex: string): Effect.Effect<bigint> =>
  Effect.map(chain.state, (state) => tokenBalance(head(state).world, otherTokenHex(state.config), hex))

/** The info of an included transaction; fails the test when it is not in a block. */
export const infoOf = (chain: SimChain, txid: string): Effect.Effect<SimTransactionInfo> =>
  Effect.map(chain.state, (state) => Option.getOrThrow(inclusionOf(state, txid)).included.info)

export const isIncluded = (chain: SimChain, txid: string): Effect.Effect<boolean> =>
  Effect.map(chain.state, (state) => Option.isSome(inclusionOf(state, txid)))

export const resourcesOf = (chain: SimChain, who: SimWallet, now: number) =>
  Effect.map(Effect.zip(chain.state, accountOf(chain, who)), ([state, found]) => ({
    energyLeft: energyLeft(found, state.parameters, now),
    freeNetUsed: freeNetUsed(found, now)
  }))

/** The user transactions `address` sent (its key signed them) that are in a block now, in block order. */
export const sentBy = (chain: SimChain, address: string): Effect.Effect<ReadonlyArray<string>> =>
  Effect.map(chain.state, (state) => {
    const hex = Option.getOrThrow(TronAddress.toHex(address))
    return state.blocks.flatMap((block) => block.transactions).filter((included) =>
      !included.system && (included.tx.raw.contract[0]?.parameter.value as { owner_address?: string } | undefined)?.owner_address === hex
    ).map((included) => included.tx.txid)
  })
