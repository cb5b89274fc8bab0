import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { stakeForEnergy } from "./SimAccount.js"
import { defaultParameters } from "./SimConfig.js"
import { startSimNode } from "./testing/SimNode.js"
import { infoOf, usdtOf } from "./testing/SimTestChain.js"
import { signAndBroadcast, usdtTransfer, wallet } from "./testing/SimWallet.js"

const sender = wallet(1)
const holder = wallet(2)
const trx = (n: bigint) => n * 1_000_000n

/** POSTs JSON to the simulator and returns the parsed body. */
const post = (url: string, body: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } })
    return JSON.parse(await response.text())
  })

describe("genesis accounts with delegated energy", () => {
  it.scopedLive("show the energy in getaccountresource and pay a USDT transfer with it, burning no TRX", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({
        genesisAccounts: [
          { address: sender.address, trx: trx(1n), usdt: 5_000_000n, delegatedEnergy: 100_000n },
          { address: holder.address, usdt: 1n }
        ]
      })
      // 10,000 TRX staked at 10 energy per TRX: exactly the 100,000 asked for.
      expect(stakeForEnergy(100_000n, defaultParameters)).toBe(trx(10_000n))
      const resources = yield* post(`${sim.url}/wallet/getaccountresource`, { address: sender.address, visible: true })
      expect(resources.EnergyLimit).toBe(100_000)
      expect(resources.EnergyUsed ?? 0).toBe(0)
      const account = yield* post(`${sim.url}/walletsolidity/getaccount`, { address: sender.address, visible: true })
      expect(account.account_resource.acquired_delegated_frozenV2_balance_for_energy).toBe(10_000_000_000)

      const txid = yield* signAndBroadcast(sim.chain, yield* usdtTransfer(sim.chain, sender, holder.address, 5_000_000n, trx(10n)), sender)
      yield* sim.chain.mine()
      const info = yield* infoOf(sim.chain, txid)
      expect(info.contractRet).toBe("SUCCESS")
      expect(info.receipt).toMatchObject({ energyUsage: 64_285n, energyUsageTotal: 64_285n, energyFee: 0n })
      expect(info.fee).toBe(0n)
      expect(yield* usdtOf(sim.chain, holder.hex)).toBe(5_000_001n)
      const after = yield* post(`${sim.url}/wallet/getaccount`, { address: sender.address, visible: true })
      expect(after.balance).toBe(1_000_000)
    }))

  it.scopedLive("an account without delegatedEnergy has none", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: sender.address, trx: trx(1n) }] })
      const resources = yield* post(`${sim.url}/wallet/getaccountresource`, { address: sender.address, visible: true })
      expect(resources.EnergyLimit ?? 0).toBe(0)
    }))
})
