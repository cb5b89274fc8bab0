// "The existing service": a plain node:http server with routes of its own, which answers them by
// calling the embedded collector's promise-returning methods. Its JSON is its own; the
// collector's HTTP API is not served here.
import { createServer } from "node:http"
import { network } from "./collector.js"

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
 * The service over the started collector (`startCollector`). `customers` is its own record of which
 * wallet belongs to which customer (in a real service a column of its customers table): the
 * collector finds a wallet by its ID or address, not by the custom_id it was created with.
 */
export const createService = ({ collector, scope }) => {
  const customers = new Map()

  /** POST /customers/:id/wallet: a receiving address for the customer, created once. */
  const createWallet = async (customerId) => {
    const wallet = await collector.wallets.create(scope, customerId).catch((error) => {
      // The collector decodes its arguments first: a custom_id of 1 to 32 characters.
      if (error?._tag === "InvalidInput") throw new HttpError(400, error.message)
      // The custom_id is unique per tenant and network: a second wallet for one customer is refused.
      if (error?._tag === "CustomIdTaken") throw new HttpError(409, `customer ${customerId} already has a wallet`)
      throw error
    })
    customers.set(customerId, wallet.id)
    return { status: 201, body: { customer: customerId, network, address: wallet.address, wallet_id: wallet.id } }
  }

  /** GET /customers/:id/deposits: the customer's deposits as booked by the engine, newest first. */
  const listDeposits = async (customerId) => {
    const walletId = customers.get(customerId)
    if (walletId === undefined) throw new HttpError(404, `no wallet for customer ${customerId}`)
    const wallet = await collector.wallets.get(scope, walletId)
    // The address filter is a contains match; a whole address matches that wallet's deposits only.
    const page = await collector.deposits.list(scope, { page: 1, pageSize: 100, address: wallet.address })
    return {
      status: 200,
      body: { customer: customerId, address: wallet.address, total: page.total, deposits: page.items.map(depositJson) }
    }
  }

  /** GET /health: whether the engine's scanner has a position on the chain yet. */
  const health = async () => {
    const scanned = await collector.scannedBlock(network)
    return { status: 200, body: { network, scanned_block: scanned === null ? null : scanned.toString() } }
  }

  const route = (method, path) => {
    let match
    if (method === "GET" && path === "/health") return health
    if (method === "POST" && (match = /^\/customers\/([^/]+)\/wallet$/.exec(path))) return () => createWallet(decodeURIComponent(match[1]))
    if (method === "GET" && (match = /^\/customers\/([^/]+)\/deposits$/.exec(path))) return () => listDeposits(decodeURIComponent(match[1]))
    return undefined
  }

  const send = (response, status, body) => {
    response.writeHead(status, { "content-type": "application/json" })
    response.end(JSON.stringify(body))
  }

  return createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname
    const handler = route(request.method, path)
    if (handler === undefined) return send(response, 404, { error: `no route ${request.method} ${path}` })
    handler().then(
      ({ status, body }) => send(response, status, body),
      (error) => {
        if (error instanceof HttpError) return send(response, error.status, { error: error.message })
        // A tagged error not mapped above, or a defect (storage failures are defects): logged, not shown.
        console.error(`${request.method} ${path} failed:`, error)
        send(response, 500, { error: "internal error" })
      }
    )
  })
}
