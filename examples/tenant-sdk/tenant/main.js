// TENANT CODE. The integration against a running server, configured by the environment:
//
//   COLLECTOR_URL=https://collector.example.com COLLECTOR_APP_ID=1000001 COLLECTOR_APP_SECRET=... \
//   node tenant/main.js [custom_id]
//
// It fetches an access token (signed by hand, then through the SDK), creates a wallet for
// `custom_id` (default "customer-<time>"), and lists every deposit page by page, booking each
// record through the revision rule. With COLLECTOR_WEBHOOK_KEY it also starts the webhook
// receiver and keeps running until Ctrl-C, re-reading the deposits every minute (a notification
// that never arrives is then still booked); COLLECTOR_WEBHOOK_URL, when set, is saved as the
// app's webhook URL (it must be the receiver's public https address).
import { readFileSync } from "node:fs"
import { pathToFileURL } from "node:url"
import { connect } from "./client.js"
import { apiConfigFromEnv, receiverConfigFromEnv } from "./config.js"
import { makeLedger } from "./ledger.js"
import { startReceiver } from "./receiver.js"
import { requestAccessToken } from "./signedTokenRequest.js"

/** USDT base units (6 decimals) as text. */
export const usdt = (units) => {
  const value = BigInt(units)
  const sign = value < 0n ? "-" : ""
  const abs = value < 0n ? -value : value
  return `${sign}${abs / 1_000_000n}.${String(abs % 1_000_000n).padStart(6, "0")} USDT`
}

/**
 * Reads every deposit page and books each record through the revision rule, so a notification
 * that was lost is still booked. Answers the records read and how many were new revisions.
 */
export const reconcileDeposits = async (client, ledger) => {
  const result = { records: [], applied: 0, acknowledged: 0 }
  for await (const record of client.allDeposits()) {
    result.records.push(record)
    if ((await ledger.applyQueried(record)) === "Applied") result.applied++
    else result.acknowledged++
  }
  return result
}

const main = async () => {
  const api = apiConfigFromEnv()
  const receiverConfig = receiverConfigFromEnv()

  const byHand = await requestAccessToken(api)
  console.log(`access token (signed by hand): ${byHand.token_type}, expires in ${byHand.expires_in} s`)
  const client = await connect(api)
  const token = await client.issueToken()
  console.log(`access token (SDK): ${token.token_type}, expires at ${token.expires_at}`)

  const ledger = makeLedger()
  let receiver
  if (receiverConfig !== undefined) {
    const { tlsCertFile, tlsKeyFile, ...options } = receiverConfig
    const tls = tlsCertFile && tlsKeyFile ? { cert: readFileSync(tlsCertFile), key: readFileSync(tlsKeyFile) } : undefined
    receiver = await startReceiver({ ...options, tls, ledger })
    console.log(`receiving webhooks at ${receiver.url}`)
    if (process.env.COLLECTOR_WEBHOOK_URL) {
      const saved = await client.setWebhook(process.env.COLLECTOR_WEBHOOK_URL)
      console.log(`webhook URL saved: ${saved.url}`)
    }
  }

  const customId = process.argv[2] ?? `customer-${Date.now()}`
  const wallet = await client.createWallet(customId)
  console.log(`wallet ${wallet.id} for ${wallet.custom_id}: send USDT (TRC20) to ${wallet.address}`)

  const counts = await reconcileDeposits(client, ledger)
  console.log(`deposits: ${counts.records.length} records read, ${counts.applied} booked`)
  for (const booking of ledger.bookings) console.log(`  deposit ${booking.id} revision ${booking.revision}: ${booking.status} ${usdt(booking.amount)}`)

  if (receiver === undefined) return
  const timer = setInterval(() => {
    reconcileDeposits(client, ledger).catch((error) => console.error(`reading deposits failed: ${error.message}`))
  }, 60_000)
  const stop = () => {
    clearInterval(timer)
    void receiver.close().then(() => process.exit(0))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(`error: ${error.message}`)
    process.exit(1)
  })
}
