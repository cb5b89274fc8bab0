import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectOk } from "./Assertions.js"
import type { RawResponse } from "./RawClient.js"
import type { Client } from "./Wallets.js"

/** The members of the sweep detail object in the order the server writes them. */
export const sweepKeys = [
  "network", "id", "wallet_id", "address", "kind", "sweep_mode", "requested_amount", "amount", "destination", "status", "reason",
  "txid", "actual_fee", "created_at", "updated_at", "webhook", "preparation_stage", "energy_rental", "fee_source", "prepared_energy",
  "estimated_wallet_trx_fee", "max_wallet_trx_fee", "actual_bandwidth_fee", "fee_warning",
  "energy_path", "fee_reason"
]

/** The members of the webhook summary inside a sweep, in order. */
export const sweepWebhookKeys = [
  "id", "event_type", "status", "attempts", "current_round", "next_attempt", "deadline_at", "last_error", "created_at", "delivered_at",
  "network"
]

export const sweepsTarget = (params: Readonly<Record<string, string>> = {}) => {
  const query = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")
  return query === "" ? "/open/v1/sweeps" : `/open/v1/sweeps?${query}`
}

export interface CreateBody {
  readonly wallet_ids: ReadonlyArray<string>
  readonly sweep_mode?: "all" | "fixed"
  readonly amount?: string
  readonly request_id?: string
}

/** A create body with a fresh request_id unless one is given; `all` unless told. */
export const createBody = (body: CreateBody): CreateBody => ({ request_id: randomUUID(), sweep_mode: "all", ...body })

/** Sweep calls of one client. */
export const sweepsOf = (client: Client) => {
  const create = (body: CreateBody) => client.post("/open/v1/sweeps", createBody(body))
  /** A create whose every item must succeed; the tasks, in order. */
  const createTasks = (walletIds: ReadonlyArray<string>, extra: Omit<CreateBody, "wallet_ids"> = {}) =>
    Effect.map(create({ wallet_ids: walletIds, ...extra }), (res) => {
      const data = expectOk(res)
      expect(data.items.map((i: any) => i.error), res.text).toEqual(walletIds.map(() => null))
      return data.items.map((i: any) => i.task) as Array<any>
    })
  const list = (params: Readonly<Record<string, string>> = {}) => Effect.map(client.get(sweepsTarget(params)), expectOk)
  const detail = (id: string) => client.get(`/open/v1/sweeps/${id}`)
  const estimate = (body: object) => client.post("/open/v1/sweeps/estimate", body)
  return { create, createTasks, list, detail, estimate }
}

/** The data of a create response, checked as a success. */
export const itemsOf = (res: RawResponse) => expectOk(res).items as Array<any>

/** Columns of a stored task to overwrite, as the sweeper would have written them. */
export type TaskColumns = Readonly<Record<string, string | number | null>>

/** A stored transaction's columns: a task from `signed` on must have one. */
export const storedTransaction = (txid: string): TaskColumns => ({
  txid,
  raw_data_hex: "0a02",
  signature: "ab".repeat(65),
  tx_expiration: "2026-03-01T00:01:00.000Z",
  fee_limit: "30000000"
})

/** Moves a task to any state directly (the sweeper that writes these is not under test here). */
export const setTask = (id: string, columns: TaskColumns) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`UPDATE sweep_tasks SET ${sql.update(columns as Record<string, unknown>)} WHERE id = ${id} RETURNING id`
    expect(rows.length, `task ${id} updated`).toBe(1)
  }).pipe(Effect.orDie)
