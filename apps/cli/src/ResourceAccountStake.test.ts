import { adapterFor, startSimNode } from "@collector/tron-sim/testing"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cliIn, query, withDatabase } from "./testing/CliHarness.js"

const trx = (n: bigint) => n * 1_000_000n

/**
 * `resource-account stake|unstake` as an operator runs them: the CLI as its own process, the
 * account made by `create`, the simulated Nile node over HTTP as TRON_NILE_NODE_URL. The
 * account's TRX is in the simulator's genesis, so the node is started once the address is known.
 */
describe("resource-account stake / unstake", () => {
  it.scoped("stakes the account's TRX for energy through the node, then starts unstaking part of it", () =>
    Effect.gen(function*() {
      const { cli: bare, env } = yield* withDatabase
      const account = JSON.parse((yield* bare("resource-account", "create", "--network", "nile", "--json")).stdout)
      const sim = yield* startSimNode({ genesisAccounts: [{ address: account.address, trx: trx(100n) }] })
      const cli = cliIn({ ...env, TRON_NILE_NODE_URL: sim.url })
      const chain = yield* adapterFor(sim.url)

      const staked = yield* cli("resource-account", "stake", "--network", "nile", "--trx", "40.5", "--json")
      expect(staked.code, staked.stderr).toBe(0)
      const out = JSON.parse(staked.stdout)
      expect(out).toEqual({ network: "nile", tenant_id: null, address: account.address, resource: "energy", sun: "40500000", txid: expect.stringMatching(/^[0-9a-f]{64}$/) })
      yield* sim.chain.mine()
      expect(yield* chain.delegatableEnergyStake(account.address)).toBe(40_500_000n)
      const shown = yield* cli("resource-account", "show", "--network", "nile", "--json")
      expect(JSON.parse(shown.stdout)).toMatchObject({ address: account.address, energy_staked_sun: "40500000", energy_lendable_sun: "40500000", energy_lent_sun: "0" })
      const text = yield* cli("resource-account", "show", "--network", "nile")
      expect(text.stdout).toContain("energy stake (SUN): 40500000 staked, 40500000 lendable now, 0 lent out")
      // With the node gone the account is still shown, its figures unknown.
      const down = yield* cliIn({ ...env, TRON_NILE_NODE_URL: "http://127.0.0.1:9", TRON_REQUEST_RETRIES: "0" })("resource-account", "show", "--network", "nile", "--json")
      expect([down.code, JSON.parse(down.stdout).energy_staked_sun, down.stderr]).toEqual([0, null, expect.stringContaining("warning: no staking figures")])

      const unstaked = yield* cli("resource-account", "unstake", "--network", "nile", "--trx", "10")
      expect(unstaked.code, unstaked.stderr).toBe(0)
      expect(unstaked.stdout).toMatch(new RegExp(`^Unstaking 10000000 SUN for energy on ${account.address}: [0-9a-f]{64}\\n$`))
      yield* sim.chain.mine()
      expect(yield* chain.delegatableEnergyStake(account.address)).toBe(30_500_000n)

      const bandwidth = yield* cli("resource-account", "stake", "--network", "nile", "--trx", "2", "--resource", "bandwidth")
      expect(bandwidth.code, bandwidth.stderr).toBe(0)
      yield* sim.chain.mine()
      expect(yield* chain.delegatableEnergyStake(account.address)).toBe(30_500_000n)
      expect((yield* chain.resources(account.address)).stakedBandwidthLimit).toBeGreaterThan(0n)
    }), { timeout: 90_000 })

  it.scoped("refuses bad amounts with the usage (exit 2), and reports the node's refusal and a missing account (exit 1)", () =>
    Effect.gen(function*() {
      const { cli: bare, env, url } = yield* withDatabase
      const sim = yield* startSimNode()
      const cli = cliIn({ ...env, TRON_NILE_NODE_URL: sim.url })
      const none = yield* cli("resource-account", "stake", "--network", "nile", "--trx", "1")
      expect([none.code, none.stderr]).toEqual([1, expect.stringContaining("no resource account on nile")])
      const account = JSON.parse((yield* bare("resource-account", "create", "--network", "nile", "--json")).stdout)
      for (const amount of ["0", "-1", "0.5", "1.0000001", "ten"]) {
        const run = yield* cli("resource-account", "stake", "--network", "nile", "--trx", amount)
        expect([amount, run.code, run.stderr]).toEqual([amount, 2, expect.stringContaining("Usage")])
      }
      expect((yield* cli("resource-account", "stake", "--network", "nile")).code).toBe(2)
      expect((yield* cli("resource-account", "stake", "--network", "nile", "--trx", "1", "--resource", "power")).code).toBe(2)
      // The account holds no TRX on this node: the node's reason is printed, nothing is staked.
      const poor = yield* cli("resource-account", "stake", "--network", "nile", "--trx", "1")
      expect([poor.code, poor.stderr]).toEqual([1, expect.stringContaining("building the stake: ChainRejected: /wallet/freezebalancev2: ")])
      expect(poor.stdout).toBe("")
      const [row] = yield* query(url, `SELECT encode(sealed_key, 'hex') AS k FROM resource_accounts WHERE address = '${account.address}'`)
      expect(poor.stderr + none.stderr).not.toContain(row.k)
    }), { timeout: 90_000 })
})
