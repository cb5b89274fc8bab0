import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaultParameters } from "./SimConfig.js"
import { testChain } from "./testing/SimTestChain.js"
import { wallet } from "./testing/SimWallet.js"
import { buildSignBroadcast, walletCall } from "./testing/WalletCalls.js"

/**
 * The Stake 2.0 figures against a real node's replies: mainnet account TZ4UXDV5 has 1 TRX of
 * energy stake delegated to it (`acquired_delegated_frozenV2_balance_for_energy: 1000000`) and
 * `getaccountresource` gives it EnergyLimit 9 at TotalEnergyLimit 180,000,000,000 and
 * TotalEnergyWeight 18,971,780,957 (test-fixtures/tron/mainnet_getaccount*_TZ4UXDV5*).
 */

const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`../../../test-fixtures/tron/${name}`, import.meta.url), "utf8"))
const recordedAccount = fixture("mainnet_getaccount_TZ4UXDV5_visible.response.json")
const recordedResources = fixture("mainnet_getaccountresource_TZ4UXDV5.response.json")

const owner = wallet(51)
const receiver = wallet(52)

describe("Stake 2.0 against recorded mainnet replies", () => {
  it.effect("1 TRX of delegated energy stake gives EnergyLimit 9 at mainnet's totals, printed with mainnet's field names", () =>
    Effect.gen(function*() {
      const sim = yield* testChain({
        parameters: {
          ...defaultParameters,
          totalEnergyLimit: BigInt(recordedResources.TotalEnergyLimit),
          totalEnergyWeight: BigInt(recordedResources.TotalEnergyWeight)
        },
        genesisAccounts: [{ address: owner.address, trx: 10_000_000n }, { address: receiver.address, trx: 4_459_000n }]
      })
      yield* buildSignBroadcast(sim, "freezebalancev2", { owner_address: owner.address, frozen_balance: "1000000", resource: "ENERGY" }, owner)
      yield* sim.mine()
      const delegated = yield* buildSignBroadcast(
        sim,
        "delegateresource",
        { owner_address: owner.address, receiver_address: receiver.address, balance: "1000000", resource: "ENERGY" },
        owner
      )
      expect(delegated).toMatchObject({ result: true })
      yield* sim.mine()

      const resources = yield* walletCall(sim, "getaccountresource", { address: receiver.address, visible: true })
      const figures = ["freeNetLimit", "TotalNetLimit", "EnergyLimit", "TotalEnergyLimit", "TotalEnergyWeight"] as const
      expect(Object.fromEntries(figures.map((key) => [key, resources[key]]))).toEqual(Object.fromEntries(figures.map((key) => [key, recordedResources[key]])))
      expect(resources.EnergyLimit).toBe(9)

      const account = yield* walletCall(sim, "getaccount", { address: receiver.address, visible: true })
      // Every account_resource field the recording has is one the simulator prints (it has not used energy yet, so no
      // consume time), with the same value for the stake.
      expect(Object.keys(account.account_resource)).toEqual(
        expect.arrayContaining(Object.keys(recordedAccount.account_resource).filter((key) => key !== "latest_consume_time_for_energy"))
      )
      expect(account.account_resource.acquired_delegated_frozenV2_balance_for_energy).toBe(
        recordedAccount.account_resource.acquired_delegated_frozenV2_balance_for_energy
      )
      // A receiver stakes nothing itself: frozenV2 is the recording's, entry for entry.
      expect(account.frozenV2).toEqual(recordedAccount.frozenV2)
    }))
})
