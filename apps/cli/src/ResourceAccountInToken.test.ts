import { Pkcs11Token } from "@collector/pkcs11"
import { createTestToken, privateKeyAttributes, skipReason, softHsmInstalled, softHsmModule } from "@collector/pkcs11/testing"
import { TronAddress } from "@collector/tron"
import { adapterFor, startSimNode } from "@collector/tron-sim/testing"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cliIn, query, withDatabase } from "./testing/CliHarness.js"

const trx = (n: bigint) => n * 1_000_000n

/** A throw-away SoftHSM2 token; the CLI finds it through SOFTHSM2_CONF, inherited from this process. */
const token = softHsmInstalled ? createTestToken() : undefined

/**
 * `resource-account create --store pkcs11` and `stake|unstake` of such an account, as an operator
 * runs them: the CLI as its own process, PKCS11_* naming the token, the simulated Nile node (which
 * checks every signature against the owner) over HTTP.
 */
describe.skipIf(token === undefined)("resource account with its key in a PKCS#11 token", () => {
  const tokenEnv = (prefix: string) => ({ PKCS11_MODULE: softHsmModule, PKCS11_TOKEN_LABEL: token!.label, PKCS11_PIN: token!.pin, PKCS11_LABEL_PREFIX: prefix })
  // Every test's database is fresh but the token is shared: a prefix of its own keeps the labels apart.
  let runs = 0
  const freshPrefix = () => `cli${++runs}-${process.pid}-`

  it.scoped("create makes the key in the token (not extractable) under the account's label; stake and unstake sign there", () =>
    Effect.gen(function*() {
      const { env, url } = yield* withDatabase
      const prefix = freshPrefix()
      const bare = cliIn({ ...env, ...tokenEnv(prefix) })
      const created = yield* bare("resource-account", "create", "--network", "nile", "--store", "pkcs11", "--json")
      expect(created.code, created.stderr).toBe(0)
      const account = JSON.parse(created.stdout)
      const label = `${prefix}resource-nile-default`
      expect(account).toMatchObject({ network: "nile", tenant_id: null, key_store: "pkcs11", key_label: label })
      expect(TronAddress.isValidTronAddress(account.address)).toBe(true)
      expect(yield* query(url, `SELECT store, key_id, sealed_key, key_label FROM resource_accounts WHERE address = '${account.address}'`)).toEqual([
        { store: "pkcs11", key_id: null, sealed_key: null, key_label: label }
      ])
      // The private key is in the token as a wallet's is: usable, never readable.
      const opened = yield* Effect.orDie(Pkcs11Token.open(token!.settings))
      expect(yield* privateKeyAttributes(opened, label)).toEqual({ sensitive: true, extractable: false, valueRequest: "CKR_ATTRIBUTE_SENSITIVE" })

      const sim = yield* startSimNode({ genesisAccounts: [{ address: account.address, trx: trx(100n) }] })
      const cli = cliIn({ ...env, ...tokenEnv(prefix), TRON_NILE_NODE_URL: sim.url })
      const chain = yield* adapterFor(sim.url)
      const staked = yield* cli("resource-account", "stake", "--network", "nile", "--trx", "40", "--json")
      expect(staked.code, staked.stderr).toBe(0)
      expect(JSON.parse(staked.stdout)).toMatchObject({ address: account.address, resource: "energy", sun: "40000000" })
      yield* sim.chain.mine()
      expect(yield* chain.delegatableEnergyStake(account.address)).toBe(40_000_000n)
      const unstaked = yield* cli("resource-account", "unstake", "--network", "nile", "--trx", "15")
      expect(unstaked.code, unstaked.stderr).toBe(0)
      yield* sim.chain.mine()
      expect(yield* chain.delegatableEnergyStake(account.address)).toBe(25_000_000n)

      // A tenant's account is labelled by the tenant's ID; the place's second account is refused.
      const tenant = JSON.parse((yield* bare("tenant", "create", "--name", "hsm", "--networks", "nile", "--json")).stdout)
      const own = JSON.parse((yield* bare("resource-account", "create", "--network", "nile", "--tenant", "hsm", "--store", "pkcs11", "--json")).stdout)
      expect(own.key_label).toBe(`${prefix}resource-nile-${tenant.tenant_id}`)
      const again = yield* bare("resource-account", "create", "--network", "nile", "--store", "pkcs11")
      expect([again.code, again.stderr]).toEqual([1, expect.stringContaining(`already has the resource account ${account.address}`)])
    }).pipe(Effect.scoped), { timeout: 120_000 })

  it.scoped("a wrong PIN is one clear line (exit 1): no key made, no account stored, nothing staked", () =>
    Effect.gen(function*() {
      const { env, url } = yield* withDatabase
      const prefix = freshPrefix()
      const wrong = cliIn({ ...env, ...tokenEnv(prefix), PKCS11_PIN: "not-the-pin" })
      const refused = yield* wrong("resource-account", "create", "--network", "nile", "--store", "pkcs11")
      expect([refused.code, refused.stdout]).toEqual([1, ""])
      expect(refused.stderr).toContain(`error: the PIN for PKCS#11 token "${token!.label}"`)
      expect(refused.stderr).toContain("was refused (CKR_PIN_INCORRECT)")
      expect(refused.stderr).not.toContain("not-the-pin")
      expect(yield* query(url, "SELECT count(*)::int AS n FROM resource_accounts")).toEqual([{ n: 0 }])
      const opened = yield* Effect.orDie(Pkcs11Token.open(token!.settings))
      expect(yield* privateKeyAttributes(opened, `${prefix}resource-nile-default`)).toBeUndefined()

      // The account made with the right PIN: a stake under the wrong one is refused before anything is built.
      const created = yield* cliIn({ ...env, ...tokenEnv(prefix) })("resource-account", "create", "--network", "nile", "--store", "pkcs11", "--json")
      const account = JSON.parse(created.stdout)
      const sim = yield* startSimNode({ genesisAccounts: [{ address: account.address, trx: trx(10n) }] })
      const stake = yield* cliIn({ ...env, ...tokenEnv(prefix), PKCS11_PIN: "not-the-pin", TRON_NILE_NODE_URL: sim.url })("resource-account", "stake", "--network", "nile", "--trx", "5")
      expect([stake.code, stake.stdout]).toEqual([1, ""])
      expect(stake.stderr).toContain("was refused (CKR_PIN_INCORRECT)")
      yield* sim.chain.mine()
      expect(yield* (yield* adapterFor(sim.url)).delegatableEnergyStake(account.address)).toBe(0n)
      // Without the token's settings at all: the usage names what is missing (exit 2).
      const unset = yield* cliIn({ ...env, TRON_NILE_NODE_URL: sim.url })("resource-account", "stake", "--network", "nile", "--trx", "5")
      expect([unset.code, unset.stderr]).toEqual([2, expect.stringContaining("PKCS11_MODULE")])
    }).pipe(Effect.scoped), { timeout: 120_000 })
})

describe.skipIf(token !== undefined)("resource account with its key in a PKCS#11 token", () => {
  it.skip(skipReason, () => expect(softHsmInstalled).toBe(false))
})
