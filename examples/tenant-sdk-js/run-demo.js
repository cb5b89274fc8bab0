// `npm test` (first half): the tenant's integration end to end in plain JavaScript, with nothing
// running beforehand. The reference server starts in this process as a stand-in for the tenant's
// real server (stand-in/, not tenant code). The tenant's code (tenant/*.js: @collector/sdk and
// node built-ins only) fetches an access token, sets its webhook URL to its receiver, creates a
// wallet; a customer pays into it; the tenant sees the deposit in the list and as a webhook, then
// sweeps the wallet into its collection wallet and sees the sweep's webhook. Exits 0 when every
// check holds, 1 on any failure or timeout.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { startStandInServer } from "./stand-in/server.js"
import { makeLedger } from "./tenant/ledger.js"
import { connect, depositsOf, walletFor } from "./tenant/main.js"
import { startReceiver } from "./tenant/receiver.js"

const here = import.meta.dirname
const say = (who, text) => console.log(`[${who}] ${text}`)
const check = (ok, message) => {
  if (!ok) throw new Error(`check failed: ${message}`)
}

const waitFor = async (what, probe, { timeoutMs = 90_000, intervalMs = 300, between = async () => {} } = {}) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)
    await between()
    await sleep(intervalMs)
  }
}

// The promise of tenant/: plain JavaScript importing nothing but the SDK and node built-ins.
for (const file of readdirSync(join(here, "tenant"))) {
  check(file.endsWith(".js"), `tenant/${file} is plain JavaScript`)
  for (const [, specifier] of readFileSync(join(here, "tenant", file), "utf8").matchAll(/^import\s(?:[^"']*?\sfrom\s)?["']([^"']+)["']/gm)) {
    check(specifier.startsWith("./") || specifier.startsWith("node:") || specifier === "@collector/sdk", `tenant/${file} imports ${specifier}`)
  }
}

let stop = async () => {}
const cleanups = []
const main = async () => {
  const server = await startStandInServer({ onStop: (s) => (stop = s) })
  const credentials = await server.createTenant("tenant-sdk-js")
  say("stand-in", `tenant created; its nile app ${credentials.appId}`)

  const client = connect({ baseUrl: server.baseUrl, appId: credentials.appId, appSecret: credentials.appSecret })
  const token = await client.auth.issueToken()
  check(typeof token.access_token === "string" && token.expires_in > 0, "an access token is issued")
  say("tenant", `access token issued, valid ${token.expires_in} s (the client renews it by itself)`)

  const ledger = makeLedger()
  const tls = { cert: readFileSync(join(here, "demo-tls", "server.pem")), key: readFileSync(join(here, "demo-tls", "server.key")) }
  const receiver = await startReceiver({ appId: credentials.appId, webhookKey: credentials.webhookKey, ledger, tls })
  cleanups.push(receiver.close)
  const webhook = await client.settings.setWebhook({ url: receiver.url, enabled: true })
  check(webhook.url === receiver.url && webhook.enabled, "the webhook URL is saved")
  say("tenant", `webhook URL saved: ${webhook.url}`)

  const wallet = await walletFor(client, "customer-1")
  const again = await walletFor(client, "customer-1")
  check(again.id === wallet.id, "a second walletFor finds the same wallet")
  const treasury = await walletFor(client, "treasury")
  say("tenant", `wallet ${wallet.id} at ${wallet.address} for customer-1; collection wallet ${treasury.address}`)

  await server.mint(wallet.address, 25_000_000n)
  await server.mine(1)
  say("world", "a customer paid 25 USDT into the wallet")
  const [deposit] = await waitFor("the deposit in the list", async () => {
    const found = await depositsOf(client, "customer-1")
    return found.length > 0 && found[0].status === "confirmed" ? found : undefined
  })
  check(deposit.amount === "25000000" && deposit.address === wallet.address, "the listed deposit is the payment")
  await waitFor("the deposit.confirmed webhook", async () =>
    receiver.outcomes.find((o) => o.event?.event_type === "deposit.confirmed" && o.outcome === "applied"))
  check(ledger.balanceOf("customer-1") === 25_000_000n, "the ledger credits 25 USDT once")
  say("tenant", `deposit ${deposit.id} confirmed, booked from its webhook: customer-1 has ${ledger.balanceOf("customer-1")} base units`)

  // The service reads the wallet's balance from the chain (balance sync) before it can sweep it.
  await waitFor("the wallet's balance", async () => ((await client.wallets.get(wallet.id)).balance_usdt === "25000000" ? true : undefined), {
    between: () => server.mine(1)
  })
  await client.settings.setCollectionAddress({ address: treasury.address })
  // The wallet holds no TRX: the sweep rents energy (the stand-in's simulated provider) for its fee.
  const { network: _network, updated_at: _updated, ...automation } = await client.settings.getAutomation()
  await client.settings.setAutomation({ ...automation, rental_allowed: true })
  const created = await client.sweeps.create({ wallet_ids: [wallet.id], sweep_mode: "all" })
  const item = created.items[0]
  check(item.wallet_id === wallet.id && item.ok && item.task !== null, `a sweep task is created (${JSON.stringify(item)})`)
  const taskId = item.task.id
  say("tenant", `sweep task ${taskId} created for wallet ${wallet.id}`)
  const swept = await waitFor("the sweep's webhook", async () => receiver.outcomes.find((o) => o.event?.event_type?.startsWith("sweep.")), {
    timeoutMs: 120_000,
    intervalMs: 500,
    between: () => server.mine(1)
  })
  const task = await client.sweeps.get(taskId)
  check(swept.event.task_id === taskId && task.status === swept.event.status, "the sweep's webhook and its task agree")
  check(task.status === "succeeded" && ledger.sweeps.length === 1, `the sweep succeeded (${task.status} ${task.reason})`)
  say("tenant", `sweep ${task.status}${task.reason ? ` (${task.reason})` : ""}; its webhook booked`)
  await client.close()
}

const timer = setTimeout(() => {
  console.error("demo: took longer than 5 minutes")
  process.exit(1)
}, 5 * 60_000)
let failed = false
try {
  await main()
  say("demo", "every check held")
} catch (error) {
  failed = true
  console.error(`demo failed: ${error?.stack ?? error}`)
} finally {
  for (const close of cleanups.reverse()) await close().catch(() => undefined)
  await stop().catch(() => undefined)
  clearTimeout(timer)
}
process.exit(failed ? 1 : 0)
