import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { createBody, itemsOf, setTask, sweepKeys, sweepsOf } from "../testing/Sweeps.js"
import { TestServerLive } from "../testing/TestServer.js"
import { externalAddress, maxAmount, pastMaxAmount, tenantClients } from "../testing/Wallets.js"

const taskCount = (walletId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM sweep_tasks WHERE wallet_id = ${walletId}`, (r) => r[0]!.n)).pipe(Effect.orDie)

/** A tenant on nile (and main) with `n` wallets and an external collection address on nile. */
const withWallets = (n: number) =>
  Effect.gen(function*() {
    const { client, clients, tenant } = yield* tenantClients(["nile", "main"])
    const wallets = yield* client.createWallets(n)
    expectOk(yield* client.setCollection(externalAddress))
    return { client, main: clients[1]!, tenant, wallets, ids: wallets.map((w) => w.id), sweeps: sweepsOf(client) }
  })

// Rate limits have their own suite; here 50 concurrent creates must all reach idempotency.
layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("sweep create", (it) => {
  it.effect("a batch: one item per wallet in request order, each a task or a per-item failure", () =>
    Effect.gen(function*() {
      const { client, ids, main, sweeps, wallets } = yield* withWallets(4)
      const [w1, w2, w3, w4] = ids as [string, string, string, string]
      // w2 already has a task; w4 becomes the collection address; the main wallet is another network's.
      yield* sweeps.createTasks([w2])
      expectOk(yield* client.setCollection(wallets[3]!.address))
      const [mainWallet] = yield* main.createWallets(1, "main")
      const res = yield* sweeps.create({ wallet_ids: [w3, "9223372036854775807", w1, w2, w4, mainWallet!.id], sweep_mode: "fixed", amount: "1500000" })
      const data = expectOk(res)
      expect(Object.keys(data)).toEqual(["network", "items", "created", "failed"])
      expect([data.network, data.created, data.failed]).toEqual(["nile", 2, 4])
      expect(data.items.map((i: any) => Object.keys(i))).toEqual(data.items.map(() => ["wallet_id", "ok", "task", "error"]))
      expect(data.items.map((i: any) => [i.wallet_id, i.ok, i.error?.error_code ?? null])).toEqual([
        [w3, true, null],
        ["9223372036854775807", false, "WALLET_NOT_FOUND"],
        [w1, true, null],
        [w2, false, "WALLET_COLLECTING"],
        [w4, false, "WALLET_IS_COLLECTION_ADDRESS"],
        [mainWallet!.id, false, "WALLET_NOT_FOUND"]
      ])
      expect(data.items.filter((i: any) => !i.ok).map((i: any) => [i.task, i.error.message])).toEqual([
        [null, "wallet 9223372036854775807 not found"],
        [null, `wallet ${w2} already has an unfinished sweep task`],
        [null, `wallet ${w4} is the collection address`],
        [null, `wallet ${mainWallet!.id} not found`]
      ])
      const task = data.items[0].task
      expect(Object.keys(task)).toEqual(sweepKeys)
      expect(task).toEqual({
        network: "nile", id: task.id, wallet_id: w3, address: wallets[2]!.address, kind: "sweep", sweep_mode: "fixed",
        requested_amount: "1500000", amount: "0", destination: wallets[3]!.address, status: "pending", reason: "", txid: "",
        actual_fee: "0", created_at: task.created_at, updated_at: task.created_at, webhook: null, preparation_stage: "queued",
        energy_rental: null, fee_source: null, prepared_energy: null, estimated_wallet_trx_fee: null,
        max_wallet_trx_fee: "15000000", actual_bandwidth_fee: null, fee_warning: null, energy_path: null, fee_reason: null
      })
      expect(task.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      // Tasks of one batch are numbered in request order.
      expect(BigInt(data.items[2].task.id)).toBeGreaterThan(BigInt(task.id))
    }))

  it.effect("without a collection address every found wallet is COLLECTION_ADDRESS_NOT_SET", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const [w] = yield* client.createWallets(1)
      const items = itemsOf(yield* sweepsOf(client).create({ wallet_ids: [w!.id, "77"] }))
      expect(items.map((i) => [i.ok, i.error.error_code, i.error.message])).toEqual([
        [false, "COLLECTION_ADDRESS_NOT_SET", "no collection address is set for this network"],
        [false, "WALLET_NOT_FOUND", "wallet 77 not found"]
      ])
      expect(yield* taskCount(w!.id)).toBe(0)
    }))

  it.effect("the automation policy's max_wallet_trx_fee is snapshotted into the task; all has a null requested amount", () =>
    Effect.gen(function*() {
      const { client, ids, sweeps } = yield* withWallets(1)
      expectOk(yield* client.post("/open/v1/settings/automation", {
        enabled: false, threshold: "1000000", interval_minutes: 60, max_wallet_trx_fee: "2500000", max_rental_cost: "0",
        rental_allowed: false, request_id: randomUUID()
      }))
      const [task] = yield* sweeps.createTasks(ids)
      expect(task).toMatchObject({ sweep_mode: "all", requested_amount: null, max_wallet_trx_fee: "2500000", destination: externalAddress })
    }))

  it.effect("the wallet becomes collecting and unavailable; the dashboard counts unfinished tasks", () =>
    Effect.gen(function*() {
      const { client, ids, sweeps } = yield* withWallets(3)
      const [w1, w2, w3] = ids as [string, string, string]
      const pending = () => Effect.map(client.get("/open/v1/dashboard"), (res) => expectOk(res).pending_tasks)
      expect(yield* pending()).toBe(0)
      const [t1, t2] = yield* sweeps.createTasks([w1, w2])
      expect(expectOk(yield* client.get(`/open/v1/wallets/${w1}`)).collection_status).toBe("collecting")
      const listed = yield* client.list({ selected_wallet_ids: w3 })
      expect(listed.items.map((w) => [w.id, w.collection_status])).toEqual([[w3, "idle"], [w2, "collecting"], [w1, "collecting"]])
      expect(listed.unavailable_wallet_ids).toEqual([w1, w2])
      expect(yield* pending()).toBe(2)
      // Every unfinished status counts; a finished one does not and frees the wallet.
      yield* setTask(t1.id, { status: "unknown", stage: "ready", txid: "ab".repeat(32), raw_data_hex: "0a", signature: "cd", tx_expiration: "2026-01-01T00:00:00Z", fee_limit: "1" })
      expect(yield* pending()).toBe(2)
      yield* setTask(t2.id, { status: "cancelled", reason: "nothing to collect" })
      expect(yield* pending()).toBe(1)
      expect(expectOk(yield* client.get(`/open/v1/wallets/${w2}`)).collection_status).toBe("idle")
      const [again] = yield* sweeps.createTasks([w2])
      expect(again.id).not.toBe(t2.id)
      expect(yield* pending()).toBe(2)
    }))

  it.effect("replays the saved batch byte for byte, even after the task moved on; other parameters are 409", () =>
    Effect.gen(function*() {
      const { ids, sweeps } = yield* withWallets(2)
      const body = createBody({ wallet_ids: [ids[0]!, "999999"], sweep_mode: "fixed", amount: "10" })
      const first = yield* sweeps.create(body)
      const task = itemsOf(first)[0].task
      yield* setTask(task.id, { status: "ready", stage: "ready", amount: "10", updated_at: "2030-01-01T00:00:00Z" })
      const again = yield* sweeps.create(body)
      expect(again.text).toBe(first.text)
      // Key order is not a parameter change.
      const reordered = yield* sweeps.create(Object.fromEntries(Object.entries(body).reverse()) as never)
      expect(JSON.stringify(expectOk(reordered))).toBe(JSON.stringify(expectOk(first)))
      // The detail is the current state, not the saved response.
      expect(expectOk(yield* sweeps.detail(task.id))).toMatchObject({ status: "ready", amount: "10", updated_at: "2030-01-01T00:00:00.000Z" })
      for (const changed of [{ ...body, amount: "11" }, { ...body, wallet_ids: [ids[0]!] }, { ...body, wallet_ids: [ids[1]!, "999999"] }]) {
        const conflict = yield* sweeps.create(changed)
        expectError(conflict, 409, "IDEMPOTENCY_CONFLICT")
        expect(conflict.json.message).toMatch(/^conflict: idempotency key already used with another request/)
      }
      expect(yield* taskCount(ids[1]!)).toBe(0)
    }))

  it.effect("50 concurrent identical creates make one task per wallet and all answer the same", () =>
    Effect.gen(function*() {
      const { ids, sweeps } = yield* withWallets(3)
      const body = createBody({ wallet_ids: ids })
      const responses = yield* Effect.all(Array.from({ length: 50 }, () => sweeps.create(body)), { concurrency: "unbounded" })
      expect(new Set(responses.map((r) => JSON.stringify(expectOk(r)))).size).toBe(1)
      expect(expectOk(responses[0]!).created).toBe(3)
      for (const id of ids) expect(yield* taskCount(id)).toBe(1)
    }), { timeout: 60_000 })

  it.effect("concurrent creates under different request_ids: one task for the wallet, the others WALLET_COLLECTING", () =>
    Effect.gen(function*() {
      const { ids, sweeps } = yield* withWallets(1)
      const responses = yield* Effect.all(Array.from({ length: 10 }, () => sweeps.create({ wallet_ids: ids })), { concurrency: "unbounded" })
      const outcomes = responses.map((r) => itemsOf(r)[0].error?.error_code ?? "created").sort()
      expect(outcomes).toEqual(["WALLET_COLLECTING", ...Array(8).fill("WALLET_COLLECTING"), "created"].sort())
      expect(yield* taskCount(ids[0]!)).toBe(1)
    }), { timeout: 60_000 })

  it.effect("every malformed body is a 400 that registers nothing under its request_id", () =>
    Effect.gen(function*() {
      const { client, ids, sweeps } = yield* withWallets(1)
      const w = ids[0]!
      const requestId = randomUUID()
      const bad = (body: object, message?: string) =>
        Effect.gen(function*() {
          const res = yield* client.post("/open/v1/sweeps", { request_id: requestId, ...body })
          expectError(res, 400, "INVALID_ARGUMENT")
          if (message !== undefined) expect(res.json.message).toBe(message)
          return res
        })
      yield* bad({ wallet_ids: [w], sweep_mode: "fixed" }, "invalid request: amount is required when sweep_mode is fixed")
      yield* bad({ wallet_ids: [w], sweep_mode: "all", amount: "5" }, "invalid request: amount must be absent when sweep_mode is all")
      const amountRule = "invalid request: amount: amount must be a positive integer string without leading zeros, at most 2^256-1"
      for (const amount of ["0", "-1", "01", "1.5", "", " 1", pastMaxAmount, "1e6"]) {
        yield* bad({ wallet_ids: [w], sweep_mode: "fixed", amount }, amountRule)
      }
      yield* bad({ wallet_ids: [w], sweep_mode: "fixed", amount: 5 })
      yield* bad({ wallet_ids: [w], sweep_mode: "all", amount: null })
      yield* bad({ wallet_ids: [w, w] }, "invalid request: wallet_ids: wallet_ids must not repeat an ID")
      yield* bad({ wallet_ids: Array.from({ length: 1001 }, (_, i) => String(i + 1)) })
      yield* bad({ wallet_ids: [] })
      for (const id of ["0", "01", "-1", "+1", "9223372036854775808", 7]) yield* bad({ wallet_ids: [id] })
      yield* bad({ wallet_ids: [w], sweep_mode: "some" })
      yield* bad({ wallet_ids: [w], sweep_mode: "all", extra: 1 }, "invalid request: extra: unknown field")
      yield* bad({ wallet_ids: [w], sweep_mode: "all", network: "nile" })
      yield* bad({ sweep_mode: "all" })
      expectError(yield* client.post("/open/v1/sweeps", { wallet_ids: [w], sweep_mode: "all" }), 400, "INVALID_ARGUMENT")
      expectError(yield* client.post("/open/v1/sweeps?x=1", { request_id: randomUUID(), wallet_ids: [w], sweep_mode: "all" }), 400, "INVALID_ARGUMENT")
      // Nothing above was saved: the same request_id now creates the task.
      expect(yield* taskCount(w)).toBe(0)
      const created = yield* sweeps.create({ request_id: requestId, wallet_ids: [w], sweep_mode: "fixed", amount: maxAmount })
      expect(itemsOf(created)[0].task.requested_amount).toBe(maxAmount)
      // Exactly 1000 IDs are accepted.
      const thousand = Array.from({ length: 1000 }, (_, i) => String(1_000_000 + i))
      expect(expectOk(yield* sweeps.create({ wallet_ids: thousand })).failed).toBe(1000)
    }), { timeout: 60_000 })
})
