import { makeCollectorClient } from "@collector/sdk"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { FetchHttpClient } from "@effect/platform"
import { expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { eventually } from "../../../test-support/Eventually.js"
import { freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"

it.scopedLive("npm start: a wallet created through the API receives USDT on the simulated nile and shows the deposit", () =>
  Effect.gen(function*() {
    const { url } = yield* freshDatabaseUrl
    const dataDir = resolve(repositoryRoot, ".data", `service-test-${process.pid}`)
    const [port, simPort] = [yield* Effect.promise(freePort), yield* Effect.promise(freePort)]
    const env = {
      DATABASE_URL: Redacted.value(url),
      MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
      DATA_DIR: dataDir,
      PORT: String(port),
      TRON_NILE_NODE_URL: undefined,
      TRON_SIM_PORT: String(simPort),
      TRON_SIM_BLOCK_MS: "300",
      SCAN_POLL_MS: "100",
      BALANCE_SYNC_WALLETS_PER_SECOND: "50",
      LOG_LEVEL: "WARN"
    }
    const child = startTs("apps/service/src/main.ts", env)
    yield* Effect.addFinalizer(() => Effect.sync(() => (child.kill("SIGTERM"), rmSync(dataDir, { recursive: true, force: true }))))
    const baseUrl = `http://127.0.0.1:${port}`
    yield* Effect.promise(() => waitForHttp(`${baseUrl}/healthz`))
    const created = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "e2e", "--networks", "nile", "--json"]))
    expect(created.code, created.stderr).toBe(0)
    const rule = yield* Effect.promise(() =>
      runTs("apps/cli/src/main.ts", env, ["tenant", "set-confirmation", "e2e", "--network", "nile", "--rule", "block_1"])
    )
    expect(rule.code, rule.stderr).toBe(0)
    const app = JSON.parse(created.stdout).apps[0]
    const client = yield* makeCollectorClient({ baseUrl, appId: app.app_id, appSecret: Redacted.make(app.app_secret), timeout: "10 seconds" }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    const wallet = yield* client.wallets.createWallet({ payload: { custom_id: "customer-1", request_id: randomUUID() } })
    // A deposit from an exchange, through the simulator's control API.
    const minted = yield* Effect.promise(() =>
      fetch(`http://127.0.0.1:${simPort}/sim/mint`, { method: "POST", body: JSON.stringify({ to: wallet.address, amount: "12345678" }) })
        .then((r) => r.json() as Promise<{ ok: boolean; txid: string }>)
    )
    expect(minted.ok).toBe(true)
    const page = yield* eventually(client.deposits.listDeposits({ urlParams: {} }), (p) => p.total === 1)
    expect(page.items[0]).toMatchObject({
      wallet_id: wallet.id,
      custom_id: "customer-1",
      address: wallet.address,
      amount: "12345678",
      txid: minted.txid,
      status: "confirmed",
      revision: 1,
      confirmation_type: "block_1"
    })
    const dashboard = yield* client.dashboard.getDashboard()
    expect(dashboard.deposit_usdt).toBe("12345678")
    expect(dashboard.engine.find((e) => e.component === "scanner")).toMatchObject({ status: "ok" })
    // The balance follows once the block is solidified (19 blocks) and balance sync reads it.
    const synced = yield* eventually(client.wallets.getWallet({ path: { id: wallet.id } }), (w) => w.balance_usdt === "12345678")
    expect(BigInt(synced.balance_block)).toBeGreaterThan(0n)
  }), { timeout: 120_000 })
