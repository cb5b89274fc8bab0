// "The existing service": a plain node:http server with routes of its own, which answers them by
// running Effects of the embedded collector on its ManagedRuntime. Its JSON is its own; the
// collector's HTTP API is not served here.
import { DepositRepository, isValidCustomId, ScanLedger, Wallets } from "@collector/core"
import { Cause, Effect, Exit, Option } from "effect"
import { createServer } from "node:http"
import { network, ShopTenant } from "./collector.js"

/** A USDT amount in base units (6 decimals) as this service shows it: "12.345678". */
export const formatUsdt = (amount) => {
  const text = amount.toString().padStart(7, "0")
  return `${text.slice(0, -6)}.${text.slice(-6)}`
}

/** A deposit in this service's own JSON. */
const depositJson = (deposit) => ({
  id: deposit.id,
  status: deposit.status,
  amount_usdt: formatUsdt(deposit.amount),
  amount_base_units: deposit.amount.toString(),
  from: deposit.source,
  txid: deposit.txid,
  block: deposit.blockNumber.toString(),
  confirmed_by: deposit.confirmationType,
  booked_at: deposit.createdAt.toISOString()
})

class HttpError extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/**
 * The service. `customers` is its own record of which wallet belongs to which customer (in a real
 * service a column of its customers table): the collector finds a wallet by its ID or address,
 * not by the custom_id it was created with.
 */
export const createService = (runtime) => {
  const customers = new Map()

  /** POST /customers/:id/wallet: a receiving address for the customer, created once. */
  const createWallet = (customerId) =>
    Effect.gen(function*() {
      if (!isValidCustomId(customerId)) return yield* Effect.fail(new HttpError(400, "a customer ID has 1 to 32 characters"))
      const { scope } = yield* ShopTenant
      const wallets = yield* Wallets
      // The custom_id is unique per tenant and network: a second wallet for one customer is refused.
      const wallet = yield* wallets.create(scope, customerId).pipe(
        Effect.catchTag("CustomIdTaken", () => Effect.fail(new HttpError(409, `customer ${customerId} already has a wallet`)))
      )
      customers.set(customerId, wallet.id)
      return { status: 201, body: { customer: customerId, network, address: wallet.address, wallet_id: wallet.id } }
    })

  /** GET /customers/:id/deposits: the customer's deposits as booked by the engine, newest first. */
  const listDeposits = (customerId) =>
    Effect.gen(function*() {
      const walletId = customers.get(customerId)
      if (walletId === undefined) return yield* Effect.fail(new HttpError(404, `no wallet for customer ${customerId}`))
      const { scope } = yield* ShopTenant
      const wallet = yield* Effect.flatMap(Wallets, (wallets) => wallets.get(scope, walletId))
      const deposits = yield* DepositRepository
      // The address filter is a contains match; a whole address matches that wallet's deposits only.
      const page = yield* deposits.list(scope, { page: 1, pageSize: 100, address: wallet.address })
      return {
        status: 200,
        body: { customer: customerId, address: wallet.address, total: page.total, deposits: page.items.map(depositJson) }
      }
    })

  /** GET /health: whether the engine's scanner has a position on the chain yet. */
  const health = Effect.gen(function*() {
    const ledger = yield* ScanLedger
    const cursor = yield* ledger.cursor(network)
    return {
      status: 200,
      body: { network, scanned_block: Option.match(cursor, { onNone: () => null, onSome: (c) => c.number.toString() }) }
    }
  })

  const route = (method, path) => {
    let match
    if (method === "GET" && path === "/health") return health
    if (method === "POST" && (match = /^\/customers\/([^/]+)\/wallet$/.exec(path))) return createWallet(decodeURIComponent(match[1]))
    if (method === "GET" && (match = /^\/customers\/([^/]+)\/deposits$/.exec(path))) return listDeposits(decodeURIComponent(match[1]))
    return undefined
  }

  const send = (response, status, body) => {
    response.writeHead(status, { "content-type": "application/json" })
    response.end(JSON.stringify(body))
  }

  return createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname
    const effect = route(request.method, path)
    if (effect === undefined) return send(response, 404, { error: `no route ${request.method} ${path}` })
    // A client that goes away before the answer interrupts its Effect.
    const controller = new AbortController()
    response.once("close", () => {
      if (!response.writableEnded) controller.abort()
    })
    runtime.runPromiseExit(effect, { signal: controller.signal }).then((exit) => {
      if (Exit.isSuccess(exit)) return send(response, exit.value.status, exit.value.body)
      const failure = Option.getOrUndefined(Cause.failureOption(exit.cause))
      if (failure instanceof HttpError) return send(response, failure.status, { error: failure.message })
      // Interrupted: the client went away, or the service is shutting down.
      if (Cause.isInterruptedOnly(exit.cause)) return response.destroy()
      // A typed error not mapped above, or a defect (storage failures are defects): logged, not shown.
      console.error(`${request.method} ${path} failed:`, exit.cause)
      send(response, 500, { error: "internal error" })
    })
  })
}
