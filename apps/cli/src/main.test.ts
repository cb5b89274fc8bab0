import { describe, expect, it } from "@effect/vitest"
import { Secrets } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Effect, Layer } from "effect"
import { runTs } from "../../../test-support/Processes.js"
import { startSimNode } from "@collector/tron-sim/testing"
import { cliIn, query, withDatabase } from "./testing/CliHarness.js"

describe("operator CLI", () => {
  it.scoped("tenant create --json prints exactly the tenant and each network's credentials, once", () =>
    Effect.gen(function*() {
      const { cli, url } = yield* withDatabase
      const run = yield* cli("tenant", "create", "--name", "acme", "--networks", "nile,main", "--json")
      expect(run.code, run.stderr).toBe(0)
      const out = JSON.parse(run.stdout)
      expect(Object.keys(out)).toEqual(["tenant_id", "name", "apps"])
      expect(out.name).toBe("acme")
      expect(out.tenant_id).toMatch(/^[1-9][0-9]*$/)
      expect(out.apps.map((a: { network: string }) => a.network)).toEqual(["nile", "main"])
      for (const app of out.apps) {
        expect(Object.keys(app)).toEqual(["network", "app_id", "app_secret", "webhook_key"])
        expect(app.app_id).toMatch(/^[1-9][0-9]*$/)
        expect(app.app_secret.length).toBeGreaterThanOrEqual(43)
        expect(Buffer.from(app.webhook_key, "base64").length).toBe(32)
      }
      // Stored sealed only: neither secret appears in the rows.
      const rows = yield* query(url, "SELECT encode(secret_sealed, 'escape') AS s, encode(webhook_key_sealed, 'hex') AS w FROM apps")
      const stored = JSON.stringify(rows)
      for (const app of out.apps) {
        expect(stored).not.toContain(app.app_secret)
        expect(stored).not.toContain(Buffer.from(app.webhook_key, "base64").toString("hex"))
      }
      const listed = JSON.parse((yield* cli("tenant", "list", "--json")).stdout)
      expect(JSON.stringify(listed)).not.toContain(out.apps[0].app_secret)
    }), { timeout: 60_000 })

  it.scoped("manages status, expiry, confirmation rule and rotations", () =>
    Effect.gen(function*() {
      const { cli } = yield* withDatabase
      const created = JSON.parse((yield* cli("tenant", "create", "--name", "beta", "--networks", "nile", "--json")).stdout)
      const status = () => Effect.map(cli("tenant", "list", "--json"), (r) => JSON.parse(r.stdout)[0])
      expect((yield* cli("tenant", "disable", "beta")).code).toBe(0)
      expect((yield* status()).status).toBe("disabled")
      expect((yield* cli("tenant", "enable", created.tenant_id)).code).toBe(0)
      expect((yield* status()).status).toBe("active")
      expect((yield* cli("tenant", "expire", "beta", "--at", "2030-01-01T00:00:00Z")).code).toBe(0)
      expect((yield* status()).expires_at).toBe("2030-01-01T00:00:00.000Z")
      expect((yield* cli("tenant", "expire", "beta", "--at", "never")).code).toBe(0)
      expect((yield* status()).expires_at).toBeNull()
      expect((yield* cli("tenant", "set-confirmation", "beta", "--network", "nile", "--rule", "block_12")).code).toBe(0)
      expect((yield* status()).apps[0].confirmation_rule).toBe("block_12")
      expect((yield* status()).apps[0].deposit_minimum).toBeNull()
      expect((yield* cli("tenant", "set-deposit-minimum", "beta", "--network", "nile", "--amount", "1000000")).code).toBe(0)
      expect((yield* status()).apps[0].deposit_minimum).toBe("1000000")
      expect((yield* cli("tenant", "set-deposit-minimum", "beta", "--network", "nile", "--amount", "1.5")).code).toBe(2)
      expect((yield* cli("tenant", "set-deposit-minimum", "beta", "--network", "nile", "--amount", "none")).code).toBe(0)
      expect((yield* status()).apps[0].deposit_minimum).toBeNull()
      const rotated = JSON.parse((yield* cli("tenant", "rotate-secret", "beta", "--network", "nile", "--json")).stdout)
      expect(rotated.app_id).toBe(created.apps[0].app_id)
      expect(rotated.app_secret).not.toBe(created.apps[0].app_secret)
      const rekeyed = JSON.parse((yield* cli("tenant", "rotate-webhook-key", "beta", "--network", "nile", "--json")).stdout)
      expect(rekeyed.webhook_key).not.toBe(created.apps[0].webhook_key)
      expect((yield* cli("tenant", "delete", "beta")).code).toBe(0)
      expect((yield* status()).status).toBe("deleted")
      // A deleted tenant frees its name.
      expect((yield* cli("tenant", "create", "--name", "beta", "--networks", "nile", "--json")).code).toBe(0)
    }), { timeout: 90_000 })

  it.scoped("tenant wallets lists each wallet with its key store and token label, by store, never a sealed key", () =>
    Effect.gen(function*() {
      const { cli, url } = yield* withDatabase
      const created = JSON.parse((yield* cli("tenant", "create", "--name", "keys", "--networks", "nile", "--json")).stdout)
      const tenant = created.tenant_id as string
      yield* query(url, `
        WITH a AS (INSERT INTO wallets (tenant_id, network, address, custom_id) VALUES (${tenant}, 'nile', 'TLocalAddress', 'old') RETURNING id)
        INSERT INTO wallet_keys (wallet_id, key_id, sealed_key) SELECT id, 'k1', '\\x0badc0ffee'::bytea FROM a`)
      yield* query(url, `
        WITH b AS (INSERT INTO wallets (tenant_id, network, address, custom_id) VALUES (${tenant}, 'nile', 'TTokenAddress', 'new') RETURNING id)
        INSERT INTO wallet_keys (wallet_id, store, key_label) SELECT id, 'pkcs11', 'collector-wallet-ab12' FROM b`)
      const all = yield* cli("tenant", "wallets", "keys", "--network", "nile", "--json")
      expect(all.code, all.stderr).toBe(0)
      const listed = JSON.parse(all.stdout)
      expect(listed.map((w: { address: string; key_store: string; key_label: string | null }) => [w.address, w.key_store, w.key_label])).toEqual([
        ["TLocalAddress", "local", null],
        ["TTokenAddress", "pkcs11", "collector-wallet-ab12"]
      ])
      expect(all.stdout).not.toContain("0badc0ffee")
      const tokenOnly = JSON.parse((yield* cli("tenant", "wallets", tenant, "--network", "nile", "--store", "pkcs11", "--json")).stdout)
      expect(tokenOnly.map((w: { custom_id: string }) => w.custom_id)).toEqual(["new"])
      const human = yield* cli("tenant", "wallets", "keys", "--network", "nile")
      expect(human.stdout).toContain("local (1):")
      expect(human.stdout).toContain("pkcs11 (1):")
      const bad = yield* cli("tenant", "wallets", "keys", "--network", "nile", "--store", "kms")
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain("--store must be one of local, pkcs11")
    }), { timeout: 60_000 })

  it.scoped("says what is wrong, with exit 2 for usage and 1 for refusals", () =>
    Effect.gen(function*() {
      const { cli } = yield* withDatabase
      yield* cli("tenant", "create", "--name", "gamma", "--networks", "nile", "--json")
      const cases: ReadonlyArray<readonly [Array<string>, number, RegExp]> = [
        [["tenant", "create", "--name", "gamma", "--networks", "nile"], 1, /already exists/],
        [["tenant", "create", "--name", "delta", "--networks", "nile,mars"], 2, /--networks/],
        [["tenant", "create", "--networks", "nile"], 2, /--name is required/],
        [["tenant", "create", "--name", "n".repeat(201), "--networks", "nile"], 1, /a tenant's name must be at most 200 characters/],
        [["tenant", "disable", "nobody"], 1, /no tenant matches "nobody"/],
        [["tenant", "expire", "gamma", "--at", "tomorrow"], 2, /RFC 3339/],
        [["tenant", "set-confirmation", "gamma", "--network", "nile", "--rule", "block_2"], 1, /the confirmation rule must be one of the enabled rules/],
        [["tenant", "rotate-secret", "gamma", "--network", "main"], 1, /no app credential on network main/],
        [["tenant", "frobnicate"], 2, /unknown command/],
        [["tenant", "list", "--bogus"], 2, /bogus/],
        [["keys", "reseal", "--batch-size", "0"], 2, /--batch-size must be a whole number from 1 to 10000, not "0"/],
        [["keys", "reseal", "--batch-size", "10001"], 2, /--batch-size must be/],
        [["keys", "rotate"], 2, /unknown command: keys rotate/],
        [["keys", "constructor"], 2, /unknown command/]
      ]
      // Refusals change nothing, so they run side by side: each call is mostly a process starting.
      const runs = yield* Effect.forEach(cases, ([args]) => cli(...args), { concurrency: 5 })
      cases.forEach(([args, code, message], i) => {
        expect({ args, code: runs[i]!.code }).toEqual({ args, code })
        expect(runs[i]!.stderr).toMatch(message)
      })
    }), { timeout: 90_000 })

  it.scoped("refuses to run on DATABASE_URL without MASTER_KEY", () =>
    Effect.gen(function*() {
      const { env } = yield* withDatabase
      const run = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", { ...env, MASTER_KEY: undefined as never }, ["tenant", "list"]))
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(/MASTER_KEY is required when DATABASE_URL is set/)
    }), { timeout: 60_000 })
  it.scoped("resource-account show picks the tenant's own account, else the network's; list never shows a sealed key", () =>
    Effect.gen(function*() {
      const { env, url } = yield* withDatabase
      // show reads the stake from the node: the simulated one, where these accounts hold none.
      const sim = yield* startSimNode()
      const cli = cliIn({ ...env, TRON_NILE_NODE_URL: sim.url })
      expect((yield* cli("resource-account", "show", "--network", "tron")).code).toBe(2)
      const none = yield* cli("resource-account", "show", "--network", "nile")
      expect([none.code, none.stderr]).toEqual([1, expect.stringContaining("no resource account on nile")])
      const tenant = JSON.parse((yield* cli("tenant", "create", "--name", "stake", "--networks", "nile", "--json")).stdout)
      yield* query(url, `INSERT INTO resource_accounts (network, tenant_id, address, store, key_id, sealed_key, key_label, created_at) VALUES
        ('nile', NULL, 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'local', 'k1', '\\xdeadbeef'::bytea, NULL, '2026-03-01T00:00:00Z'),
        ('nile', ${tenant.tenant_id}, 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj', 'pkcs11', NULL, NULL, 'collector-resource-1', '2026-03-01T00:00:00Z')`)
      const shown = (tenantArgs: Array<string>) => Effect.map(cli("resource-account", "show", "--network", "nile", ...tenantArgs, "--json"), (r) => JSON.parse(r.stdout).address)
      expect(yield* shown([])).toBe("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8")
      expect(yield* shown(["--tenant", "stake"])).toBe("TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj")
      const figures = JSON.parse((yield* cli("resource-account", "show", "--network", "nile", "--json")).stdout)
      expect([figures.energy_staked_sun, figures.energy_lendable_sun, figures.energy_lent_sun]).toEqual(["0", "0", "0"])
      const listed = yield* cli("resource-account", "list", "--json")
      expect(JSON.parse(listed.stdout).map((a: { tenant_id: string | null }) => a.tenant_id)).toEqual([null, tenant.tenant_id])
      expect(listed.stdout).not.toContain("deadbeef")
    }), { timeout: 90_000 })
  it.scoped("resource-account create makes a key sealed for its address, once per place, and prints no key", () =>
    Effect.gen(function*() {
      const { cli, url, env } = yield* withDatabase
      const created = yield* cli("resource-account", "create", "--network", "main", "--json")
      expect(created.code, created.stderr).toBe(0)
      const account = JSON.parse(created.stdout)
      expect(Object.keys(account)).toEqual(["network", "tenant_id", "address", "key_store", "key_label", "created_at"])
      expect([account.network, account.tenant_id, account.key_store]).toEqual(["main", null, "local"])
      expect(TronAddress.isValidTronAddress(account.address)).toBe(true)
      // The stored key opens under the CLI's master key, where the Signer opens it, to the account's own key.
      const [row] = yield* query(url, `SELECT key_id, sealed_key FROM resource_accounts WHERE address = '${account.address}'`)
      const current = MasterKey.unsafeMake(Buffer.from(env.MASTER_KEY, "base64"))
      const box = AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer({ current, previous: [] })), Layer.provide(NodeEntropy.layer))
      const secretKey = yield* Effect.flatMap(Secrets.SecretBox, (b) => b.open({ keyId: row.key_id, blob: new Uint8Array(row.sealed_key) }, Secrets.walletKeyContext(account.address))).pipe(Effect.provide(box))
      expect(TronAddress.fromSecretKey(secretKey)).toBe(account.address)
      expect(created.stdout).not.toContain(Buffer.from(row.sealed_key).toString("hex"))
      const again = yield* cli("resource-account", "create", "--network", "main")
      expect([again.code, again.stderr]).toEqual([1, expect.stringContaining(`network main already has the resource account ${account.address}`)])
      expect((yield* query(url, "SELECT count(*)::int AS n FROM resource_accounts"))[0].n).toBe(1)
      // A key in a token needs the token's settings (PKCS11_*): without them, the usage names them.
      const noToken = yield* cli("resource-account", "create", "--network", "nile", "--store", "pkcs11")
      expect([noToken.code, noToken.stderr]).toEqual([2, expect.stringContaining("PKCS11_MODULE")])
      expect((yield* cli("resource-account", "create", "--network", "main", "--store", "vault")).code).toBe(2)
      const tenant = JSON.parse((yield* cli("tenant", "create", "--name", "own-stake", "--networks", "main", "--json")).stdout)
      const own = JSON.parse((yield* cli("resource-account", "create", "--network", "main", "--tenant", "own-stake", "--json")).stdout)
      expect(own.tenant_id).toBe(tenant.tenant_id)
      expect(own.address).not.toBe(account.address)
    }), { timeout: 90_000 })
})
