import { makeCollectorClient } from "@collector/sdk"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { FetchHttpClient } from "@effect/platform"
import { expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { eventually } from "../../../test-support/Eventually.js"
import { scrape, valueOf } from "../../../test-support/Operator.js"
import { freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"

it.scopedLive("npm start: estimate, then a sweep under the default caps through the API that rents energy and activation, settles on the simulated nile and reports", () =>
  Effect.gen(function*() {
    const { url } = yield* freshDatabaseUrl
    const dataDir = resolve(repositoryRoot, ".data", `service-estimate-test-${process.pid}`)
    const [port, simPort, operatorPort] = [yield* Effect.promise(freePort), yield* Effect.promise(freePort), yield* Effect.promise(freePort)]
    const env = {
      DATABASE_URL: Redacted.value(url),
      MASTER_KEY: Buffer.alloc(32, 8).toString("base64"),
      DATA_DIR: dataDir,
      PORT: String(port),
      OPERATOR_PORT: String(operatorPort),
      TRON_NILE_NODE_URL: undefined,
      ENERGY_PROVIDER_NILE: undefined,
      TRON_SIM_PORT: String(simPort),
      TRON_SIM_BLOCK_MS: "200",
      // Blocks come 15 times faster than on chain here: the sweeper's waits are scaled to match
      // (the default first receipt look-up is 60 s after the broadcast, 20 blocks of 3 s).
      SWEEP_SETTLE_DELAY_MS: "4000",
      SWEEP_SETTLE_MS: "300",
      SWEEP_RENTAL_POLL_MS: "300",
      SWEEP_IDLE_MS: "200",
      LOG_LEVEL: "WARN"
    }
    const child = startTs("apps/service/src/main.ts", env)
    yield* Effect.addFinalizer(() => Effect.sync(() => (child.kill("SIGTERM"), rmSync(dataDir, { recursive: true, force: true }))))
    const baseUrl = `http://127.0.0.1:${port}`
    yield* Effect.promise(() => waitForHttp(`${baseUrl}/healthz`))
    const created = yield* Effect.promise(() => runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "estimate", "--networks", "nile", "--json"]))
    expect(created.code, created.stderr).toBe(0)
    const app = JSON.parse(created.stdout).apps[0]
    const client = yield* makeCollectorClient({ baseUrl, appId: app.app_id, appSecret: Redacted.make(app.app_secret), timeout: "10 seconds" }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    const [source, collector] = yield* Effect.forEach(["source", "collector"], (customId) =>
      client.wallets.createWallet({ payload: { custom_id: customId, request_id: randomUUID() } }))
    yield* client.settings.setCollectionAddress({ payload: { address: collector!.address, request_id: randomUUID() } })
    // As the README says: the default policy with rental allowed, nothing else changed.
    const { network: _, updated_at: __, ...defaults } = yield* client.settings.getAutomation()
    yield* client.settings.setAutomation({ payload: { ...defaults, rental_allowed: true, request_id: randomUUID() } })
    const minted = yield* Effect.promise(() =>
      fetch(`http://127.0.0.1:${simPort}/sim/mint`, { method: "POST", body: JSON.stringify({ to: source!.address, amount: "7000000" }) })
        .then((r) => r.json() as Promise<{ ok: boolean }>)
    )
    expect(minted.ok).toBe(true)
    const estimate = client.sweeps.estimateSweeps({ payload: { wallet_ids: [source!.id, collector!.id], sweep_mode: "all" } })
    // Solidified some 19 blocks later.
    let result = yield* estimate
    for (let i = 0; i < 100 && result.items[0]!.amount !== "7000000"; i++) {
      yield* Effect.sleep("200 millis")
      result = yield* estimate
    }
    expect(result.items.map((i) => [i.wallet_id, i.amount, i.sweepable, i.fee_source, i.estimated_activation_cost, i.reason])).toEqual([
      [source!.id, "7000000", true, "rental", "1100000", ""],
      [collector!.id, "0", false, null, "0", `wallet ${collector!.id} is the collection address`]
    ])
    expect(BigInt(result.items[0]!.estimated_rental_cost)).toBeGreaterThan(0n)

    // The sweep itself: created through the API, carried out by the worker of the same process.
    const requestId = randomUUID()
    const create = client.sweeps.createSweeps({ payload: { wallet_ids: [source!.id, collector!.id], sweep_mode: "all", request_id: requestId } })
    const batch = yield* create
    expect(batch).toMatchObject({ created: 1, failed: 1 })
    expect(batch.items[1]!.error!.error_code).toBe("WALLET_IS_COLLECTION_ADDRESS")
    const taskId = batch.items[0]!.task!.id
    expect(yield* create).toEqual(batch)
    expect((yield* client.wallets.getWallet({ path: { id: source!.id } })).collection_status).toBe("collecting")
    const done = yield* eventually(client.sweeps.getSweep({ path: { id: taskId } }), (t) => ["succeeded", "failed", "cancelled"].includes(t.status), 90_000)
    expect(done, done.reason).toMatchObject({
      status: "succeeded",
      amount: "7000000",
      destination: collector!.address,
      fee_source: "rental",
      actual_fee: "0",
      preparation_stage: "ready"
    })
    expect(done.txid).toMatch(/^[0-9a-f]{64}$/)
    expect(done.energy_rental).toMatchObject({ state: "delivered", activation_cost: "1100000" })
    // The operator's metrics count the finished task and what it cost, by kind, once.
    const metrics = yield* Effect.promise(() => scrape(operatorPort))
    expect(valueOf(metrics, "collector_sweeps_finished_total", { network: "nile", status: "succeeded" })).toBe(1)
    expect(valueOf(metrics, "collector_sweep_fees_sun_total", { network: "nile", kind: "activation" })).toBe(1_100_000)
    expect(valueOf(metrics, "collector_sweep_fees_sun_total", { network: "nile", kind: "energy_rental" })).toBe(Number(done.energy_rental!.paid_cost))
    expect(valueOf(metrics, "collector_sweep_fees_sun_total", { network: "nile", kind: "network" })).toBe(0)
    // The webhook is not configured: the event's first round ends at once, and the summary says so.
    const summary = yield* eventually(client.sweeps.getSweep({ path: { id: taskId } }), (t) => t.webhook?.status === "failed")
    expect(summary.webhook).toMatchObject({ id: taskId, event_type: "sweep.succeeded", network: "nile" })
    const swept = yield* client.wallets.getWallet({ path: { id: source!.id } })
    expect(swept).toMatchObject({ collection_status: "idle", collected_usdt: "7000000" })
    // The collection wallet's balance is read again once the sweep's block is solidified.
    yield* eventually(client.wallets.getWallet({ path: { id: collector!.id } }), (w) => w.balance_usdt === "7000000", 90_000)
    // The sweep moved the tenant's own money into its collection wallet: no deposit. A transfer
    // from outside into that wallet, in a later block, is one; once it is booked, the sweep's
    // block has been through the scanner too.
    const outside = yield* Effect.promise(() =>
      fetch(`http://127.0.0.1:${simPort}/sim/mint`, { method: "POST", body: JSON.stringify({ to: collector!.address, amount: "1000000" }) })
        .then((r) => r.json() as Promise<{ ok: boolean }>)
    )
    expect(outside.ok).toBe(true)
    const deposits = yield* eventually(client.deposits.listDeposits({ urlParams: {} }), (p) => p.items.some((d) => d.wallet_id === collector!.id), 90_000)
    expect(deposits.items.map((d) => [d.wallet_id, d.amount]).sort()).toEqual([[collector!.id, "1000000"], [source!.id, "7000000"]].sort())
    // The collection wallet shows what it holds on chain: the swept 7 USDT and the 1 from outside.
    const collection = yield* eventually(client.wallets.getWallet({ path: { id: collector!.id } }), (w) => w.balance_usdt === "8000000", 90_000)
    expect(collection).toMatchObject({ collected_usdt: "0" })
    const dashboard = yield* eventually(client.dashboard.getDashboard(), (d) => d.balance_usdt === "8000000")
    expect(dashboard).toMatchObject({ pending_tasks: 0, collected_usdt: "7000000", deposit_usdt: "8000000" })
    expect(dashboard.engine.find((e) => e.component === "sweeper")).toMatchObject({ status: "ok" })
    // No task is left unfinished, as the sweeper counts them with its heartbeat.
    const statuses = (text: string) => ["pending", "ready", "signed", "broadcast", "unknown"].map((status) => valueOf(text, "collector_sweeps", { network: "nile", status }))
    yield* eventually(Effect.promise(() => scrape(operatorPort)), (text) => statuses(text).every((n) => n === 0))
  }), { timeout: 180_000 })
