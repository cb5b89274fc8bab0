import { seedEvent } from "@collector/postgres/testing"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectError, expectOk } from "../testing/Assertions.js"
import { call, tokenFor } from "../testing/Calls.js"
import { provisionTenant } from "../testing/Tenants.js"
import { setTask, storedTransaction, sweepKeys, sweepsOf, sweepWebhookKeys } from "../testing/Sweeps.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"
import { expectInvalid, externalAddress, tenantClients } from "../testing/Wallets.js"
import { scopeOf } from "../testing/Webhooks.js"

/** A nile tenant with `n` wallets, an external collection address and one task per wallet (IDs ascending). */
const withTasks = (n: number) =>
  Effect.gen(function*() {
    const { client, clients, tenant } = yield* tenantClients(["nile", "main"])
    const wallets = yield* client.createWallets(n)
    expectOk(yield* client.setCollection(externalAddress))
    const sweeps = sweepsOf(client)
    const tasks = yield* sweeps.createTasks(wallets.map((w) => w.id))
    return { client, main: clients[1]!, tenant, wallets, tasks, ids: tasks.map((t) => t.id as string), sweeps }
  })

const idsOf = (data: { items: ReadonlyArray<{ id: string }> }) => data.items.map((t) => t.id)

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("sweep list and detail", (it) => {
  it.effect("task ID descending, paged, with the true total; an empty list is items []", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      expect(yield* sweepsOf(client).list()).toEqual({ network: "nile", items: [], total: 0, page: 1, page_size: 20 })
      const { ids, sweeps } = yield* withTasks(5)
      const all = yield* sweeps.list()
      expect(Object.keys(all)).toEqual(["network", "items", "total", "page", "page_size"])
      expect([idsOf(all), all.total]).toEqual([[...ids].reverse(), 5])
      for (const item of all.items) expect(Object.keys(item)).toEqual(sweepKeys)
      expect(yield* sweeps.list({ page: "2", page_size: "2" })).toMatchObject({ total: 5, page: 2, page_size: 2, items: [{ id: ids[2] }, { id: ids[1] }] })
      expect(yield* sweeps.list({ page: "4", page_size: "2" })).toMatchObject({ total: 5, items: [] })
      expect(yield* sweeps.list({ page: "", page_size: "" })).toMatchObject({ total: 5, page: 1, page_size: 20 })
      expect((yield* sweeps.list({ page_size: "100" })).page_size).toBe(100)
    }))

  it.effect("filters by status, wallet_id and txid, together; empty means none", () =>
    Effect.gen(function*() {
      const { ids, sweeps, tasks } = yield* withTasks(4)
      const txid = "0f".repeat(32)
      yield* setTask(ids[0]!, { status: "failed", reason: "the fixed amount 5 is above the balance 0" })
      yield* setTask(ids[1]!, { status: "broadcast", stage: "ready", ...storedTransaction(txid) })
      yield* setTask(ids[2]!, { status: "failed", reason: "energy rental refused" })
      expect(idsOf(yield* sweeps.list({ status: "failed" }))).toEqual([ids[2], ids[0]])
      expect(idsOf(yield* sweeps.list({ status: "pending" }))).toEqual([ids[3]])
      expect(idsOf(yield* sweeps.list({ status: "succeeded" }))).toEqual([])
      expect(idsOf(yield* sweeps.list({ wallet_id: tasks[2].wallet_id }))).toEqual([ids[2]])
      expect(idsOf(yield* sweeps.list({ txid }))).toEqual([ids[1]])
      expect(idsOf(yield* sweeps.list({ txid, status: "failed" }))).toEqual([])
      expect(idsOf(yield* sweeps.list({ wallet_id: tasks[0].wallet_id, status: "failed" }))).toEqual([ids[0]])
      expect((yield* sweeps.list({ status: "", wallet_id: "", txid: "" })).total).toBe(4)
      expect((yield* sweeps.list({ wallet_id: "9223372036854775807" })).total).toBe(0)
    }))

  it.effect("bad filters and paging are 400 with the exact message; unknown or repeated keys are 400", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const get = (target: string) => client.get(target)
      const statuses = "pending, ready, signed, broadcast, unknown, succeeded, failed, cancelled"
      expectInvalid(yield* get("/open/v1/sweeps?status=done"), `invalid request: status must be one of ${statuses}`)
      expectInvalid(yield* get("/open/v1/sweeps?status=PENDING"), `invalid request: status must be one of ${statuses}`)
      for (const bad of ["0", "01", "-1", "abc", "9223372036854775808"]) {
        expectInvalid(yield* get(`/open/v1/sweeps?wallet_id=${bad}`), "invalid request: wallet_id must be a positive integer ID")
      }
      for (const bad of ["AB".repeat(32), "ab".repeat(31), "ab".repeat(33), "zz".repeat(32)]) {
        expectInvalid(yield* get(`/open/v1/sweeps?txid=${bad}`), "invalid request: txid must be 64 lowercase hexadecimal characters")
      }
      for (const paging of ["page=0", "page=-1", "page=a", "page_size=0", "page_size=101", "page_size=1.5"]) {
        expectInvalid(yield* get(`/open/v1/sweeps?${paging}`), "invalid request: invalid pagination")
      }
      expectInvalid(yield* get("/open/v1/sweeps?network=nile"))
      expectInvalid(yield* get("/open/v1/sweeps?status=failed&status=pending"))
    }))

  it.effect("detail: all 26 members of the contract table with nulls as values, the stage only while pending, the rental and the webhook summary", () =>
    Effect.gen(function*() {
      const { ids, sweeps, tenant, wallets } = yield* withTasks(3)
      const pending = expectOk(yield* sweeps.detail(ids[0]!))
      expect(Object.keys(pending)).toEqual(sweepKeys)
      expect(pending).toMatchObject({ status: "pending", preparation_stage: "queued", webhook: null, energy_rental: null, txid: "", requested_amount: null })
      yield* setTask(ids[0]!, { stage: "waiting_bandwidth", reason: "waiting for free bandwidth: 100 of 345 bytes left" })
      expect(expectOk(yield* sweeps.detail(ids[0]!))).toMatchObject({ status: "pending", preparation_stage: "waiting_bandwidth", reason: "waiting for free bandwidth: 100 of 345 bytes left" })

      const txid = "1a".repeat(32)
      yield* setTask(ids[1]!, {
        status: "succeeded", stage: "ready", amount: "2500000", ...storedTransaction(txid), actual_fee: "3456000",
        actual_bandwidth_fee: "0", fee_warning: "bandwidth burned 345000 SUN", fee_source: "rental", prepared_energy: "70714",
        estimated_wallet_trx_fee: "0", energy_path: "rented",
        fee_reason: "renting 70714 energy from \"sim\" for 2828560 SUN, the cheapest healthy quote within max_rental_cost", updated_at: "2026-03-01T00:02:03.456Z", rental_order_id: `sweep-nile-${ids[1]}`,
        rental_provider: "sim", rental_provider_order_id: "p-1", rental_quantity: "70714", rental_estimated_cost: "2828560",
        rental_paid_cost: "2800000", rental_activation_cost: "1500000", rental_state: "delivered", rental_expires_at: "2026-03-01T01:00:00Z"
      })
      yield* seedEvent(scopeOf(tenant), {
        id: ids[1]!, eventType: "sweep.succeeded", status: "delivered", attempts: 2, currentRound: 1, nextAttempt: null,
        lastError: "HTTP 502", createdAt: "2026-03-01T00:02:03.456Z", deadlineAt: "2026-03-02T00:02:03.456Z",
        deliveredAt: "2026-03-01T00:02:13.5Z"
      })
      const done = expectOk(yield* sweeps.detail(ids[1]!))
      expect(Object.keys(done)).toEqual(sweepKeys)
      expect(done).toEqual({
        network: "nile", id: ids[1], wallet_id: wallets[1]!.id, address: wallets[1]!.address, kind: "sweep", sweep_mode: "all",
        requested_amount: null, amount: "2500000", destination: externalAddress, status: "succeeded", reason: "", txid,
        actual_fee: "3456000", created_at: done.created_at, updated_at: "2026-03-01T00:02:03.456Z",
        webhook: {
          id: ids[1], event_type: "sweep.succeeded", status: "delivered", attempts: 2, current_round: 1, next_attempt: null,
          deadline_at: "2026-03-02T00:02:03.456Z", last_error: "HTTP 502", created_at: "2026-03-01T00:02:03.456Z",
          delivered_at: "2026-03-01T00:02:13.500Z", network: "nile"
        },
        preparation_stage: "ready",
        energy_rental: {
          order_id: `sweep-nile-${ids[1]}`, quantity: "70714", estimated_cost: "2828560", paid_cost: "2800000",
          activation_cost: "1500000", state: "delivered", expires_at: "2026-03-01T01:00:00.000Z"
        },
        fee_source: "rental", prepared_energy: "70714", estimated_wallet_trx_fee: "0", max_wallet_trx_fee: "15000000",
        actual_bandwidth_fee: "0", fee_warning: "bandwidth burned 345000 SUN", energy_path: "rented",
        fee_reason: "renting 70714 energy from \"sim\" for 2828560 SUN, the cheapest healthy quote within max_rental_cost"
      })
      expect(Object.keys(done.webhook)).toEqual(sweepWebhookKeys)
      // The list shows the very same object.
      expect((yield* sweeps.list({ status: "succeeded" })).items).toEqual([done])

      // A task that failed while pending shows stage ready: preparation is over.
      yield* setTask(ids[2]!, { stage: "renting", status: "failed", reason: "energy rental refused by sim: no stock" })
      expect(expectOk(yield* sweeps.detail(ids[2]!))).toMatchObject({ status: "failed", preparation_stage: "ready", webhook: null })
    }))

  it.effect("detail: 404 for an absent task, another tenant's or network's; 400 for a bad ID or any query", () =>
    Effect.gen(function*() {
      const { client, ids, main, sweeps, tenant } = yield* withTasks(1)
      const url = yield* ServerUrl
      const other = yield* provisionTenant(["nile"])
      const otherToken = yield* tokenFor(url, other.app)
      expectError(yield* call(url, other.app, otherToken, "GET", `/open/v1/sweeps/${ids[0]}`), 404, "RESOURCE_NOT_FOUND")
      expectError(yield* main.get(`/open/v1/sweeps/${ids[0]}`), 404, "RESOURCE_NOT_FOUND")
      expect((yield* sweepsOf(main).list()).total).toBe(0)
      expectError(yield* sweeps.detail("9223372036854775807"), 404, "RESOURCE_NOT_FOUND")
      // A notification event that is not a task's is not a task.
      const eventId = yield* seedEvent(scopeOf(tenant), { eventType: "sweep.failed" })
      expectError(yield* sweeps.detail(eventId), 404, "RESOURCE_NOT_FOUND")
      for (const bad of ["0", "01", "-1", "+1", "abc", "1.0", "9223372036854775808"]) {
        expectError(yield* sweeps.detail(bad), 400, "INVALID_ARGUMENT")
      }
      expectError(yield* client.get(`/open/v1/sweeps/${ids[0]}?network=nile`), 400, "INVALID_ARGUMENT")
      expectError(yield* client.get(`/open/v1/sweeps/${ids[0]}?`), 400, "INVALID_ARGUMENT")
      expectError(yield* client.post(`/open/v1/sweeps/${ids[0]}`, {}), 405, "METHOD_NOT_ALLOWED")
    }))
})

