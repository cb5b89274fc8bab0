import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "./Assertions.js"
import { call, tokenFor } from "./Calls.js"
import type { RawResponse } from "./RawClient.js"
import { provisionTenant, type TestApp } from "./Tenants.js"
import { ServerUrl } from "./TestServer.js"

/** The largest amount the contract accepts, and one past it. */
export const maxAmount = (2n ** 256n - 1n).toString()
export const pastMaxAmount = (2n ** 256n).toString()

/** A valid external TRON address (the mainnet USDT contract), never one of ours. */
export const externalAddress = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"

/** A wallet list target; each key and value percent-encoded as a client would send it. */
export const listTarget = (params: Readonly<Record<string, string>> = {}) => {
  const query = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")
  return query === "" ? "/open/v1/wallets" : `/open/v1/wallets?${query}`
}

/** Signed calls as one app (one tenant, one network) of the test server. */
export const clientFor = (app: TestApp) =>
  Effect.gen(function*() {
    const url = yield* ServerUrl
    const token = yield* tokenFor(url, app)
    const get = (target: string) => call(url, app, token, "GET", target)
    /** A string body is sent as is; anything else as its JSON. */
    const post = (target: string, body: unknown) => call(url, app, token, "POST", target, typeof body === "string" ? body : JSON.stringify(body))
    const createWallet = (customId: string) =>
      Effect.map(post("/open/v1/wallets", { custom_id: customId, request_id: randomUUID() }), (res) => expectOk(res) as WalletIdentity)
    /** `n` wallets created one after another, so their IDs (and creation times) ascend. */
    const createWallets = (n: number, prefix = "w") =>
      Effect.forEach(Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`), createWallet)
    const list = (params: Readonly<Record<string, string>> = {}) => Effect.map(get(listTarget(params)), (res) => expectOk(res) as WalletListData)
    const setCollection = (address: string, requestId: string = randomUUID()) =>
      post("/open/v1/settings/addresses/collection", { address, request_id: requestId })
    return { app, token, get, post, createWallet, createWallets, list, setCollection }
  })

export type Client = Effect.Effect.Success<ReturnType<typeof clientFor>>

/** A fresh tenant on the given networks, with a client for each network's app (same order). */
export const tenantClients = (networks: ReadonlyArray<"nile" | "main"> = ["nile"]) =>
  Effect.gen(function*() {
    const tenant = yield* provisionTenant(networks)
    const clients = yield* Effect.forEach(tenant.apps, clientFor)
    return { tenant, clients, client: clients[0]! }
  })

export interface WalletIdentity {
  readonly id: string
  readonly address: string
  readonly custom_id: string
  readonly created_at: string
}

export interface WalletListData {
  readonly network: string
  readonly items: ReadonlyArray<any>
  readonly total: number
  readonly page: number
  readonly page_size: number
  readonly unavailable_wallet_ids: ReadonlyArray<string>
}

export const idsOf = (data: { readonly items: ReadonlyArray<{ readonly id: string }> }) => data.items.map((w) => w.id)

/** The stored balance state a chain sync would write; omitted columns keep their value. */
export interface WalletState {
  readonly usdt?: string | null
  readonly trx?: string | null
  readonly block?: string
  readonly collected?: string
  readonly lastCollectedAt?: string | null
}

/** Sets a wallet's synchronised state directly: the chain sync that writes it does not exist yet. */
export const setWalletState = (id: string, s: WalletState) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const set: Record<string, unknown> = {}
    if (s.usdt !== undefined) set.balance_usdt = s.usdt
    if (s.trx !== undefined) set.balance_trx = s.trx
    if (s.block !== undefined) set.balance_block = s.block
    if (s.collected !== undefined) set.collected_usdt = s.collected
    if (s.lastCollectedAt !== undefined) set.last_collected_at = s.lastCollectedAt
    const rows = yield* sql`UPDATE wallets SET ${sql.update(set)} WHERE id = ${id} RETURNING id`
    expect(rows.length, `wallet ${id} updated`).toBe(1)
  }).pipe(Effect.orDie)

/** A synced wallet's balances (block 100). */
export const synced = (usdt: string, trx: string): WalletState => ({ usdt, trx, block: "100" })

/** The 400 every bad wallet-list parameter gets, with its exact message when the code defines one. */
export const expectInvalid = (res: RawResponse, message?: string) => {
  expectError(res, 400, "INVALID_ARGUMENT")
  if (message !== undefined) expect(res.json.message).toBe(message)
}

/**
 * Six wallets w1..w6 (IDs ascending) with states chosen so that every sort has ties and nulls:
 *
 * | wallet | usdt | trx | synced | collected | last_collected_at           |
 * |--------|------|-----|--------|-----------|-----------------------------|
 * | w1     | 500  | 0   | yes    | 0         | null                        |
 * | w2     | 500  | 30  | yes    | 700       | 2026-01-02T00:00:00Z        |
 * | w3     | null | null| no     | 300       | 2026-01-01T00:00:00.123456Z |
 * | w4     | 0    | 20  | yes    | 700       | 2026-01-02T00:00:00Z        |
 * | w5     | 1000 | 30  | yes    | 0         | null                        |
 * | w6     | null | null| no     | 0         | null                        |
 *
 * Returns the wallets and `order`, which maps "w3,w1" style names to their IDs.
 */
export const sixWallets = (client: Client) =>
  Effect.gen(function*() {
    const ws = yield* client.createWallets(6)
    const [w1, w2, w3, w4, w5, w6] = ws as [WalletIdentity, WalletIdentity, WalletIdentity, WalletIdentity, WalletIdentity, WalletIdentity]
    yield* setWalletState(w1.id, synced("500", "0"))
    yield* setWalletState(w2.id, { ...synced("500", "30"), collected: "700", lastCollectedAt: "2026-01-02T00:00:00Z" })
    yield* setWalletState(w3.id, { collected: "300", lastCollectedAt: "2026-01-01T00:00:00.123456Z" })
    yield* setWalletState(w4.id, { ...synced("0", "20"), collected: "700", lastCollectedAt: "2026-01-02T00:00:00Z" })
    yield* setWalletState(w5.id, synced("1000", "30"))
    const byName: Record<string, WalletIdentity> = { w1, w2, w3, w4, w5, w6 }
    const order = (names: string) => (names === "" ? [] : names.split(",").map((n) => byName[n]!.id))
    return { w1, w2, w3, w4, w5, w6, order }
  })
