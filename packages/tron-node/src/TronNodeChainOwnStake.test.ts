import { TransactionId, TransactionRaw, TronAddress } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { fixtureText, makeFakeNode } from "./testing/FakeNode.js"
import { chainWith, useFakeNodeServer } from "./testing/TestChain.js"

const server = useFakeNodeServer()

const owner = "TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp"
const other = "TAkMvwVV7YfEEymVSP8y5e41bckH72o75d"
const hex = (address: string) => Option.getOrThrow(TronAddress.toHex(address)).toLowerCase()

/** A freezebalancev2 / unfreezebalancev2 reply for `contract`, consistent (bytes and txID agree) as a node sends it. */
const builtReply = (contract: TransactionRaw.Contract) => {
  const raw: TransactionRaw.RawData = { contract: [contract], ref_block_bytes: "0a0b", ref_block_hash: "0102030405060708", expiration: 1777447227000n }
  const bytes = Either.getOrThrow(TransactionRaw.encodeRawData(raw))
  return { visible: true, txID: TransactionId.compute(bytes), raw_data_hex: Buffer.from(bytes).toString("hex") }
}

const freeze = (value: TransactionRaw.FreezeBalanceV2Contract): TransactionRaw.Contract => ({
  type: "FreezeBalanceV2Contract",
  parameter: { value, type_url: TransactionRaw.typeUrl("FreezeBalanceV2Contract") }
})

const unfreeze = (value: TransactionRaw.UnfreezeBalanceV2Contract): TransactionRaw.Contract => ({
  type: "UnfreezeBalanceV2Contract",
  parameter: { value, type_url: TransactionRaw.typeUrl("UnfreezeBalanceV2Contract") }
})

/**
 * The node builds the staking transactions; these tests stand in for a node that answers
 * something other than the ask, which must never reach the signer.
 */
describe("TronNodeChain own stake", () => {
  it.live("asks freezebalancev2 for the stake and hands back the node's transaction when it is exactly that", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const reply = builtReply(freeze({ owner_address: hex(owner), frozen_balance: 5_000_000n, resource: "ENERGY" }))
      node.on("/wallet/freezebalancev2", reply)
      const built = yield* (yield* chainWith()).buildStake({ owner, balance: 5_000_000n, resource: "ENERGY" })
      expect(built).toEqual({ txid: reply.txID, rawDataHex: reply.raw_data_hex, expiration: new Date(1777447227000), feeLimit: 0n })
      expect(node.seen[0]!.body).toEqual({ owner_address: owner, frozen_balance: 5000000, resource: "ENERGY", visible: true })
    }))

  it.live("reads a contract without resource as BANDWIDTH, as the proto's default is", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/unfreezebalancev2", builtReply(unfreeze({ owner_address: hex(owner), unfreeze_balance: 2_000_000n })))
      const chain = yield* chainWith()
      const built = yield* chain.buildUnstake({ owner, balance: 2_000_000n, resource: "BANDWIDTH" })
      expect(node.seen[0]!.body).toEqual({ owner_address: owner, unfreeze_balance: 2000000, resource: "BANDWIDTH", visible: true })
      expect(built.feeLimit).toBe(0n)
      const energy = yield* chain.buildUnstake({ owner, balance: 2_000_000n, resource: "ENERGY" }).pipe(Effect.flip)
      expect(energy.reason).toContain("is not the requested 2000000 SUN for ENERGY")
    }))

  it.live("refuses a transaction for another amount, resource, owner or contract, and one whose txID is not its hash", () =>
    Effect.gen(function*() {
      const ask = { owner, balance: 5_000_000n, resource: "ENERGY" } as const
      const wrongs = [
        builtReply(freeze({ owner_address: hex(owner), frozen_balance: 6_000_000n, resource: "ENERGY" })),
        builtReply(freeze({ owner_address: hex(owner), frozen_balance: 5_000_000n, resource: "BANDWIDTH" })),
        builtReply(freeze({ owner_address: hex(other), frozen_balance: 5_000_000n, resource: "ENERGY" })),
        builtReply(unfreeze({ owner_address: hex(owner), unfreeze_balance: 5_000_000n, resource: "ENERGY" })),
        { ...builtReply(freeze({ owner_address: hex(owner), frozen_balance: 5_000_000n, resource: "ENERGY" })), txID: "00".repeat(32) }
      ]
      const reasons: Array<string> = []
      for (const wrong of wrongs) {
        const node = makeFakeNode(server)
        node.on("/wallet/freezebalancev2", wrong)
        reasons.push((yield* (yield* chainWith()).buildStake(ask).pipe(Effect.flip)).reason)
      }
      expect(reasons).toEqual([
        "/wallet/freezebalancev2: the built transaction is not the requested 5000000 SUN for ENERGY of TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp",
        "/wallet/freezebalancev2: the built transaction is not the requested 5000000 SUN for ENERGY of TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp",
        "/wallet/freezebalancev2: the built transaction is not the requested 5000000 SUN for ENERGY of TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp",
        "/wallet/freezebalancev2: raw_data_hex is not a single FreezeBalanceV2Contract",
        `/wallet/freezebalancev2: txID ${"00".repeat(32)} is not the hash of raw_data_hex`
      ])
    }))

  it.live("reads the energy stake from getaccount: none in a recorded mainnet account whose frozenV2 entries carry no amount, zeros for an unknown one", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getaccount", fixtureText("mainnet_getaccount_TZ4UXDV5_visible.response.json"))
      const chain = yield* chainWith()
      expect(yield* chain.energyStake("TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g")).toEqual({ staked: 0n, lent: 0n })
      expect(node.seen[0]!.body).toEqual({ address: "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g", visible: true })
      node.on("/wallet/getaccount", {})
      expect(yield* chain.energyStake(owner)).toEqual({ staked: 0n, lent: 0n })
      node.on("/wallet/getaccount", {
        frozenV2: [{ amount: 7 }, { type: "ENERGY", amount: 3_000_000 }, { type: "TRON_POWER" }],
        account_resource: { delegated_frozenV2_balance_for_energy: 2_000_000 }
      })
      // Kept plus lent: a lent stake leaves frozenV2 but is still the owner's.
      expect(yield* chain.energyStake(owner)).toEqual({ staked: 5_000_000n, lent: 2_000_000n })
    }))
})
