/**
 * The fair reference of the API benchmarks (issue 21): a hand-written server on `node:http` and a
 * `pg` Pool, no Effect, doing per request the work our API does for the operations measured, so
 * that a ratio to it prices the framework and our structure, not the work itself.
 *
 * Per request: the request is read (body too, and refused when a GET or the token operation
 * carries one); the query is parsed into CANONICAL_QUERY and the X-Sign HMAC-SHA256 verified over
 * the same canonical string, with the very functions the API uses (from @collector/api, whose
 * entry loads Effect's modules at start, though nothing of Effect runs per request); the timestamp window is checked; for a bearer request
 * the token's SHA-256 is looked up in an in-memory Map (the stand-in for our sub-second token
 * cache) filled by this server's own token operation; then the same SQL statement text our
 * adapter runs (packages/postgres: PgWalletRepository, WalletFilterSql, PgAccessTokenRepository),
 * parameterised the same way; then the same envelope, `{"code":0,"message":"","data":...}`,
 * with the same fields and headers (integers as strings, a fresh trace ID).
 *
 * Operations: POST /open/v1/auth/token (one INSERT whose commit does not wait for the WAL flush, as ours), GET /open/v1/wallets/{id},
 * GET /open/v1/wallets (filters: `address` only; `sort`, `order`, `page`, `page_size`).
 *
 * Not done here, done by ours: the per-app rate limiter, the in-flight bound and deadline, the
 * request metrics and the JSON access log line, the credential cache's re-read (one query a
 * second), and schema encoding; the app's secret is given in the environment instead of being
 * unsealed from the database.
 *
 * Environment: PORT, DATABASE_URL, APP_ID, APP_SECRET (the app to accept; its tenant and network
 * are read from `apps` at start), POOL_SIZE (default 20, our DATABASE_POOL_SIZE default).
 */
import { canonicalString, parseCanonicalQuery, verifySignature } from "@collector/api"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { fileURLToPath } from "node:url"
import pg from "pg"

// ---- The statements, copied from packages/postgres (whitespace as @effect/sql compiles them). ----

/** PgWalletRepository's `walletColumns` (with `collectingSql` and SweepRows' `terminalSql` inlined). */
const walletColumns = `w.id, w.network, w.address, w.custom_id, w.balance_usdt::text, w.balance_trx::text, w.balance_block,
  w.collected_usdt::text, w.last_collected_at, w.created_at,
  coalesce(s.collection_address, '') AS destination, coalesce(s.collection_wallet_id = w.id, false) AS is_collection,
  EXISTS (SELECT 1 FROM sweep_tasks t WHERE t.wallet_id = w.id AND t.status NOT IN ('succeeded', 'failed', 'cancelled') OFFSET 0) AS collecting`

/** PgWalletRepository's `walletsWithSettings`. */
const walletsWithSettings = `wallets w LEFT JOIN tenant_settings s ON s.tenant_id = w.tenant_id AND s.network = w.network`

/** PgWalletRepository.find: parameters id, tenant, network. */
export const findStatement = `SELECT ${walletColumns} FROM ${walletsWithSettings} WHERE w.id = $1 AND w.tenant_id = $2 AND w.network = $3`

/** PgAccessTokenRepository.insert: one statement, its commit not waiting for the WAL flush. */
export const tokenStatement = "INSERT INTO access_tokens (token_hash, app_id, expires_at) VALUES ($1, $2, $3) RETURNING set_config('synchronous_commit', 'off', true)"

// WalletFilterSql's `walletOrder`: nullable keys say NULLS LAST.
const sortKeys: Record<string, { readonly column: string; readonly nullable: boolean }> = {
  created_at: { column: "w.created_at", nullable: false },
  balance_usdt: { column: "w.balance_usdt", nullable: true },
  balance_trx: { column: "w.balance_trx", nullable: true },
  last_collected_at: { column: "w.last_collected_at", nullable: true },
  collected_usdt: { column: "w.collected_usdt", nullable: false }
}

/** WalletFilterSql's `containsPattern`. */
const containsPattern = (text: string) => `%${text.toLowerCase().replaceAll("\\", "\\\\")}%`

export interface ListQuery {
  readonly address: string | undefined
  readonly sort: string
  readonly order: "asc" | "desc"
  readonly page: number
  readonly pageSize: number
}

/**
 * PgWalletRepository's `listStatement` (with WalletFilterSql's `walletWhere` and `walletOrder`),
 * as @effect/sql-pg compiles it: placeholders numbered in the order the fragments appear.
 */
export const listStatement = (tenantId: string, network: string, q: ListQuery): { text: string; values: Array<unknown> } => {
  const values: Array<unknown> = []
  const p = (value: unknown) => {
    values.push(value)
    return `$${values.length}`
  }
  const filtered = q.address !== undefined
  const total = filtered ? "count(*) OVER ()" : `(SELECT coalesce(sum(n), 0) FROM wallet_counts c WHERE c.tenant_id = ${p(tenantId)} AND c.network = ${p(network)})`
  const where = [`w.tenant_id = ${p(tenantId)}`, `w.network = ${p(network)}`]
  if (q.address !== undefined) where.push(`lower(w.address) LIKE ${p(containsPattern(q.address))}`)
  const key = sortKeys[q.sort]!
  const order = `${key.column} ${q.order === "asc" ? "ASC" : "DESC"}${key.nullable ? " NULLS LAST" : ""}, w.id DESC`
  const text = `
    SELECT ${walletColumns}, ${total}::text AS total FROM ${walletsWithSettings}
    WHERE (${where.join(" AND ")})
    ORDER BY ${order} LIMIT ${p(q.pageSize)} OFFSET ${p((q.page - 1) * q.pageSize)}`
  return { text, values }
}

/** PgWalletRepository.list's second statement, run only for a page past the end. */
export const emptyPageTotal = (tenantId: string, network: string, q: ListQuery) =>
  q.address !== undefined
    ? { text: `SELECT count(*)::text AS n FROM wallets w WHERE (w.tenant_id = $1 AND w.network = $2 AND lower(w.address) LIKE $3)`, values: [tenantId, network, containsPattern(q.address)] }
    : { text: `
              SELECT coalesce(sum(n), 0)::text AS n FROM wallet_counts WHERE tenant_id = $1 AND network = $2`, values: [tenantId, network] }

// ---- The server. ----

interface WalletRow {
  readonly id: string
  readonly network: string
  readonly address: string
  readonly custom_id: string
  readonly balance_usdt: string | null
  readonly balance_trx: string | null
  readonly balance_block: string
  readonly collected_usdt: string
  readonly last_collected_at: Date | null
  readonly created_at: Date
  readonly destination: string
  readonly is_collection: boolean
  readonly collecting: boolean
}

/** WalletPresenter's `presentWallet`, field for field and in the schema's order. */
const presentWallet = (w: WalletRow) => {
  const synced = w.balance_block !== "0"
  return {
    id: w.id,
    address: w.address,
    custom_id: w.custom_id,
    chain: "TRON",
    network: w.network,
    collection_status: w.collecting ? "collecting" : "idle",
    balance_usdt: synced ? w.balance_usdt : null,
    balance_trx: synced ? w.balance_trx : null,
    balance_block: w.balance_block,
    destination: w.destination,
    collected_usdt: w.collected_usdt,
    last_collected_at: w.last_collected_at?.toISOString() ?? null,
    created_at: w.created_at.toISOString()
  }
}

const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)

const canonicalId = /^[1-9][0-9]{0,18}$/
const canonicalTimestamp = /^(0|[1-9][0-9]{0,15})$/
const timestampWindowSeconds = 300
const tokenLifetimeSeconds = 7200
const walletPath = "/open/v1/wallets/"

interface App {
  readonly appId: string
  readonly secret: string
  readonly tenantId: string
  readonly network: string
}

export const startReferenceServer = async (port: number, databaseUrl: string, appId: string, secret: string, poolSize: number) => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, application_name: "reference" })
  pool.on("error", () => {})
  const found = await pool.query<{ tenant_id: string; network: string }>("SELECT tenant_id, network FROM apps WHERE app_id = $1", [appId])
  if (found.rows[0] === undefined) throw new Error(`no app ${appId}`)
  const apps = new Map<string, App>([[appId, { appId, secret, tenantId: found.rows[0].tenant_id, network: found.rows[0].network }]])
  // Token hash (hex) to its app and expiry: what our token cache holds once warm.
  const tokens = new Map<string, { readonly appId: string; readonly expiresAt: number }>()

  const send = (res: ServerResponse, status: number, traceId: string, payload: unknown, signedOnly = false) => {
    const body = JSON.stringify(payload)
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-trace-id": traceId
    }
    if (signedOnly) headers.pragma = "no-cache"
    res.writeHead(status, headers)
    res.end(body)
  }
  const fail = (res: ServerResponse, status: number, errorCode: string, message: string, traceId: string) =>
    send(res, status, traceId, { code: status, message, error_code: errorCode, trace_id: traceId })
  const ok = (res: ServerResponse, traceId: string, data: unknown, signedOnly = false) => send(res, 200, traceId, { code: 0, message: "", data }, signedOnly)

  /** The app the request is signed by, or undefined (a 401). */
  const authenticate = (req: IncomingMessage, path: string, canonicalQuery: string, body: Uint8Array, bearer: boolean): App | undefined => {
    const appId = req.headers["x-app-id"]
    const timestamp = req.headers["x-timestamp"]
    const sign = req.headers["x-sign"]
    if (typeof appId !== "string" || typeof timestamp !== "string" || typeof sign !== "string") return undefined
    let accessToken = ""
    const authorization = req.headers.authorization
    if (bearer) {
      if (authorization === undefined || !authorization.startsWith("Bearer ") || authorization.length === 7) return undefined
      accessToken = authorization.slice(7)
    } else if (authorization !== undefined) return undefined
    const now = Date.now()
    if (!canonicalId.test(appId) || !canonicalTimestamp.test(timestamp)) return undefined
    if (Math.abs(Number(timestamp) - Math.floor(now / 1000)) > timestampWindowSeconds) return undefined
    const app = apps.get(appId)
    if (app === undefined) return undefined
    const canonical = canonicalString({ method: req.method!, path, appId, timestamp, accessToken, canonicalQuery, body })
    if (!verifySignature(app.secret, canonical, sign)) return undefined
    if (bearer) {
      const token = tokens.get(createHash("sha256").update(accessToken, "utf8").digest("hex"))
      if (token === undefined || token.appId !== app.appId || token.expiresAt <= now) return undefined
    }
    return app
  }

  const issueToken = async (res: ServerResponse, traceId: string, app: App) => {
    const token = randomBytes(32).toString("base64url")
    const expiresAt = new Date(Date.now() + tokenLifetimeSeconds * 1000)
    const hash = createHash("sha256").update(token, "utf8").digest()
    await pool.query(tokenStatement, [hash, app.appId, expiresAt])
    if (tokens.size >= 100_000) tokens.clear()
    tokens.set(hash.toString("hex"), { appId: app.appId, expiresAt: expiresAt.getTime() })
    ok(res, traceId, { access_token: token, token_type: "Bearer", expires_in: tokenLifetimeSeconds, expires_at: expiresAt.toISOString() }, true)
  }

  const getWallet = async (res: ServerResponse, traceId: string, app: App, id: string) => {
    const { rows } = await pool.query<WalletRow>(findStatement, [id, app.tenantId, app.network])
    if (rows[0] === undefined) return fail(res, 404, "RESOURCE_NOT_FOUND", `wallet ${id} not found`, traceId)
    ok(res, traceId, presentWallet(rows[0]))
  }

  const listWallets = async (res: ServerResponse, traceId: string, app: App, params: ReadonlyArray<readonly [string, string]>) => {
    const raw = new Map(params)
    const given = (key: string) => (raw.get(key) === undefined || raw.get(key) === "" ? undefined : raw.get(key))
    for (const key of raw.keys()) {
      if (!["address", "sort", "order", "page", "page_size"].includes(key)) return fail(res, 400, "INVALID_ARGUMENT", `invalid request: the reference takes no ${key}`, traceId)
    }
    const address = given("address")
    if (address !== undefined && (Buffer.byteLength(address) > 100 || address.includes("\u0000"))) return fail(res, 400, "INVALID_ARGUMENT", "invalid request: address", traceId)
    const page = given("page") ?? "1"
    const size = given("page_size") ?? "20"
    if (!/^[1-9][0-9]{0,8}$/.test(page) || !/^[1-9][0-9]{0,2}$/.test(size) || Number(size) > 100) return fail(res, 400, "INVALID_ARGUMENT", "invalid request: invalid pagination", traceId)
    const sort = given("sort") ?? "created_at"
    if (sortKeys[sort] === undefined) return fail(res, 400, "INVALID_ARGUMENT", "invalid request: invalid sort field", traceId)
    const order = given("order") ?? "desc"
    if (order !== "asc" && order !== "desc") return fail(res, 400, "INVALID_ARGUMENT", "invalid request: order must be asc or desc", traceId)
    const query: ListQuery = { address, sort, order, page: Number(page), pageSize: Number(size) }
    const statement = listStatement(app.tenantId, app.network, query)
    const { rows } = await pool.query<WalletRow & { total: string }>(statement.text, statement.values)
    let total: number
    if (rows.length > 0) total = Number(rows[0]!.total)
    else {
      const counted = emptyPageTotal(app.tenantId, app.network, query)
      total = Number((await pool.query<{ n: string }>(counted.text, counted.values)).rows[0]!.n)
    }
    ok(res, traceId, {
      network: app.network,
      items: rows.map(presentWallet),
      total,
      page: query.page,
      page_size: query.pageSize,
      unavailable_wallet_ids: rows.filter((w) => w.collecting || w.is_collection).map((w) => w.id).sort(compareIds)
    })
  }

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Uint8Array) => {
    const traceId = randomUUID().replaceAll("-", "")
    const url = req.url ?? "/"
    const mark = url.indexOf("?")
    const path = mark === -1 ? url : url.slice(0, mark)
    const rawQuery = mark === -1 ? "" : url.slice(mark + 1)
    const invalid = (message: string) => fail(res, 400, "INVALID_ARGUMENT", `invalid request: ${message}`, traceId)
    const unauthorized = () => fail(res, 401, "TOKEN_INVALID_OR_EXPIRED", "token invalid or expired", traceId)
    if (body.length > 0) return invalid("this operation accepts no body")
    if (req.method === "POST" && path === "/open/v1/auth/token") {
      if (mark !== -1) return invalid("POST accepts no query string")
      const app = authenticate(req, path, "", body, false)
      return app === undefined ? unauthorized() : issueToken(res, traceId, app)
    }
    if (req.method !== "GET") return fail(res, 404, "ROUTE_NOT_FOUND", `route not found: ${path}`, traceId)
    const query = parseCanonicalQuery(rawQuery)
    if (!query.ok) return invalid("malformed query string")
    if (path === "/open/v1/wallets") {
      const app = authenticate(req, path, query.canonical, body, true)
      return app === undefined ? unauthorized() : listWallets(res, traceId, app, query.params)
    }
    if (path.startsWith(walletPath) && canonicalId.test(path.slice(walletPath.length))) {
      if (mark !== -1) return invalid("this operation accepts no query parameters")
      const app = authenticate(req, path, "", body, true)
      return app === undefined ? unauthorized() : getWallet(res, traceId, app, path.slice(walletPath.length))
    }
    return fail(res, 404, "ROUTE_NOT_FOUND", `route not found: ${path}`, traceId)
  }

  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      handle(req, res, chunks.length === 0 ? new Uint8Array(0) : new Uint8Array(Buffer.concat(chunks))).catch((error) => {
        console.error(error)
        if (!res.headersSent) fail(res, 500, "INTERNAL_ERROR", "internal error", "")
      })
    })
  })
  await new Promise<void>((listening) => server.listen(port, "127.0.0.1", listening))
  return server
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = (name: string) => {
    const value = process.env[name]
    if (value === undefined || value === "") throw new Error(`${name} is required`)
    return value
  }
  // An orderly exit on SIGTERM, so that `--cpu-prof` writes its profile.
  process.on("SIGTERM", () => process.exit(0))
  startReferenceServer(Number(env("PORT")), env("DATABASE_URL"), env("APP_ID"), env("APP_SECRET"), Number(process.env.POOL_SIZE ?? 20)).catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
