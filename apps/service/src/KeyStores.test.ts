import { Secrets } from "@collector/core"
import { makeCollectorClient } from "@collector/sdk"
import { createTestToken, skipReason, softHsmInstalled, softHsmModule } from "@collector/pkcs11/softhsm"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { wallet } from "@collector/tron-sim/testing"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import pg from "pg"
import { eventually } from "../../../test-support/Eventually.js"
import { freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"

const masterKey = Buffer.alloc(32, 9)

/** A wallet made before the switch to the token: its key sealed under the master key, as `KEY_STORE=local` stores it. */
const insertLocalWallet = (url: string, tenantId: string, customId: string, key: { readonly address: string; readonly secretKey: Uint8Array }) =>
  Effect.promise(async () => {
    const box = AesGcmSecretBox.make(MasterKeyring.make({ current: MasterKey.unsafeMake(masterKey) }), NodeEntropy.make)
    const sealed = Effect.runSync(box.seal(key.secretKey, Secrets.walletKeyContext(key.address)))
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const { rows } = await client.query(
        `WITH w AS (INSERT INTO wallets (tenant_id, network, address, custom_id) VALUES ($1, 'nile', $2, $3) RETURNING id)
         INSERT INTO wallet_keys (wallet_id, key_id, sealed_key) SELECT id, $4, $5 FROM w RETURNING wallet_id::text AS id`,
        [tenantId, key.address, customId, sealed.keyId, Buffer.from(sealed.blob)]
      )
      return rows[0].id as string
    } finally {
      await client.end()
    }
  })

describe.skipIf(!softHsmInstalled)("npm start with KEY_STORE=pkcs11 (SoftHSM2)", () => {
  it.scopedLive("new wallets get token keys through the API, an existing local wallet keeps its key, and both sweep through the one process", () =>
    Effect.gen(function*() {
      const token = createTestToken(undefined, 2)
      const { url } = yield* freshDatabaseUrl
      const dataDir = resolve(repositoryRoot, ".data", `service-keystores-test-${process.pid}`)
      const [port, simPort, operatorPort] = [yield* Effect.promise(freePort), yield* Effect.promise(freePort), yield* Effect.promise(freePort)]
      const env = {
        DATABASE_URL: Redacted.value(url),
        MASTER_KEY: masterKey.toString("base64"),
        DATA_DIR: dataDir,
        PORT: String(port),
        OPERATOR_PORT: String(operatorPort),
        TRON_NILE_NODE_URL: undefined,
        ENERGY_PROVIDER_NILE: undefined,
        TRON_SIM_PORT: String(simPort),
        TRON_SIM_BLOCK_MS: "200",
        SWEEP_SETTLE_DELAY_MS: "4000",
        SWEEP_SETTLE_MS: "300",
        SWEEP_RENTAL_POLL_MS: "300",
        SWEEP_IDLE_MS: "200",
        LOG_LEVEL: "WARN",
        KEY_STORE: "pkcs11",
        PKCS11_MODULE: softHsmModule,
        PKCS11_TOKEN_LABEL: token.label,
        PKCS11_PIN: token.pin,
        PKCS11_SESSIONS: "2"
      }
      const child = startTs("apps/service/src/main.ts", env)
      yield* Effect.addFinalizer(() => Effect.sync(() => (child.kill("SIGTERM"), rmSync(dataDir, { recursive: true, force: true }))))
      const baseUrl = `http://127.0.0.1:${port}`
      yield* Effect.promise(() => waitForHttp(`${baseUrl}/healthz`))
      const ready = yield* Effect.promise(() => fetch(`http://127.0.0.1:${operatorPort}/readyz`).then((r) => r.json() as Promise<{ checks: Array<{ component: string; ready: boolean; detail: string }> }>))
      expect(ready.checks.find((c) => c.component === "key_store")).toMatchObject({ ready: true, detail: expect.stringContaining(`pkcs11 token "${token.label}"`) })
      const created = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "hsm", "--networks", "nile", "--json"]))
      expect(created.code, created.stderr).toBe(0)
      const tenant = JSON.parse(created.stdout)
      const oldId = yield* insertLocalWallet(Redacted.value(url), tenant.tenant_id, "old", wallet(4_400_000 + (process.pid % 1000)))
      const client = yield* makeCollectorClient({ baseUrl, appId: tenant.apps[0].app_id, appSecret: Redacted.make(tenant.apps[0].app_secret), timeout: "10 seconds" }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      const [fresh, collector] = yield* Effect.forEach(["new", "collector"], (customId) =>
        client.wallets.createWallet({ payload: { custom_id: customId, request_id: randomUUID() } }))
      const old = yield* client.wallets.getWallet({ path: { id: oldId } })
      yield* client.settings.setCollectionAddress({ payload: { address: collector!.address, request_id: randomUUID() } })
      const { network: _, updated_at: __, ...defaults } = yield* client.settings.getAutomation()
      yield* client.settings.setAutomation({ payload: { ...defaults, rental_allowed: true, request_id: randomUUID() } })
      for (const address of [old.address, fresh!.address]) {
        const minted = yield* Effect.promise(() =>
          fetch(`http://127.0.0.1:${simPort}/sim/mint`, { method: "POST", body: JSON.stringify({ to: address, amount: "5000000" }) }).then((r) => r.json() as Promise<{ ok: boolean }>))
        expect(minted.ok).toBe(true)
      }
      const ids = [oldId, fresh!.id]
      yield* eventually(client.sweeps.estimateSweeps({ payload: { wallet_ids: ids, sweep_mode: "all" } }), (r) => r.items.every((i) => i.amount === "5000000"), 60_000)
      const batch = yield* client.sweeps.createSweeps({ payload: { wallet_ids: ids, sweep_mode: "all", request_id: randomUUID() } })
      expect(batch).toMatchObject({ created: 2, failed: 0 })
      for (const item of batch.items) {
        const done = yield* eventually(client.sweeps.getSweep({ path: { id: item.task!.id } }), (t) => ["succeeded", "failed", "cancelled"].includes(t.status), 90_000)
        expect(done, done.reason).toMatchObject({ status: "succeeded", amount: "5000000", destination: collector!.address })
      }
      // The operator sees which store holds each key.
      const listed = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", env, ["tenant", "wallets", "hsm", "--network", "nile", "--json"]))
      expect(listed.code, listed.stderr).toBe(0)
      const stores = Object.fromEntries(JSON.parse(listed.stdout).map((w: { custom_id: string; key_store: string }) => [w.custom_id, w.key_store]))
      expect(stores).toEqual({ old: "local", new: "pkcs11", collector: "pkcs11" })
    }), 300_000)
})

describe.skipIf(softHsmInstalled)("npm start with KEY_STORE=pkcs11 (SoftHSM2)", () => {
  it.skip(skipReason, () => expect(softHsmInstalled).toBe(false))
})
