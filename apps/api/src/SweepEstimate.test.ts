import { makeCollectorClient } from "@collector/sdk"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { startSimNode } from "@collector/tron-sim/testing"
import { wallet } from "@collector/tron-sim/testing"
import { FetchHttpClient } from "@effect/platform"
import { expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"

it.scopedLive("npm run api: the sweep estimate reads the configured node and energy provider", () =>
  Effect.gen(function*() {
    const sim = yield* startSimNode()
    const { url } = yield* freshDatabaseUrl
    const dataDir = resolve(repositoryRoot, ".data", `api-estimate-test-${process.pid}`)
    const port = yield* Effect.promise(freePort)
    const env = {
      DATABASE_URL: Redacted.value(url),
      MASTER_KEY: Buffer.alloc(32, 9).toString("base64"),
      DATA_DIR: dataDir,
      PORT: String(port),
      TRON_NILE_NODE_URL: sim.url,
      ENERGY_PROVIDER_NILE: "sim",
      ENERGY_PROVIDER_MAIN: undefined,
      LOG_LEVEL: "WARN"
    }
    const child = startTs("apps/api/src/main.ts", env)
    yield* Effect.addFinalizer(() => Effect.sync(() => (child.kill("SIGTERM"), rmSync(dataDir, { recursive: true, force: true }))))
    const baseUrl = `http://127.0.0.1:${port}`
    yield* Effect.promise(() => waitForHttp(`${baseUrl}/healthz`))
    const created = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "estimate", "--networks", "nile", "--json"]))
    expect(created.code, created.stderr).toBe(0)
    const app = JSON.parse(created.stdout).apps[0]
    const client = yield* makeCollectorClient({ baseUrl, appId: app.app_id, appSecret: Redacted.make(app.app_secret), timeout: "10 seconds" }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    yield* client.settings.setCollectionAddress({ payload: { address: wallet(3).address, request_id: randomUUID() } })
    yield* client.settings.setAutomation({
      payload: {
        enabled: false, threshold: "1000000", interval_minutes: 60, max_wallet_trx_fee: "15000000", max_rental_cost: "20000000",
        rental_allowed: true, request_id: randomUUID()
      }
    })
    const created1 = yield* client.wallets.createWallet({ payload: { custom_id: "rented", request_id: randomUUID() } })
    // USDT on a wallet that is not on chain yet: the provider must activate it and rent all of the energy.
    yield* sim.chain.mintUsdt(created1.address, 5_000_000n)
    yield* sim.chain.mine(20)
    const estimate = yield* client.sweeps.estimateSweeps({ payload: { wallet_ids: [created1.id], sweep_mode: "all" } })
    // 130,285 energy to an address without USDT, +10% = 143,314; the simulated provider asks 90 SUN each.
    expect(estimate.items).toEqual([{
      wallet_id: created1.id, address: created1.address, amount: "5000000", sweepable: true, reason: "", fee_source: "rental",
      energy_estimate: "130285", prepared_energy: "143314", energy_available: "0", estimated_wallet_trx_fee: "0",
      estimated_rental_cost: (143_314n * 90n).toString(), estimated_activation_cost: "1100000", bandwidth_needed: "345",
      bandwidth_available: "600", waits_for_bandwidth: false, energy_path: "rented",
      // The rental and the activation: 143,314 × 90 + 1,100,000 SUN.
      fee_reason: `renting 143314 energy from "sim" for 13998260 SUN, the cheapest healthy quote within max_rental_cost`
    }])
    expect(estimate.total.amount).toBe("5000000")
  }), { timeout: 120_000 })
