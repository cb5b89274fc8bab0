// `npm test` (second half): the SDK's receiver as Express middleware and as a Fastify plugin,
// each in a real app, fed deliveries sealed the way the service seals them (@collector/api's
// sealEnvelope, standing in for the service). A genuine delivery is booked once, its repeat is
// acknowledged without booking, and a forged one is refused with 400.
import { sealEnvelope } from "@collector/api"
import { expressWebhookHandler, fastifyWebhookPlugin } from "@collector/sdk"
import express from "express"
import Fastify from "fastify"
import { randomBytes } from "node:crypto"

const appId = "1000001"
const webhookKey = randomBytes(32).toString("base64")
const check = (ok, message) => {
  if (!ok) throw new Error(`check failed: ${message}`)
}

const deposit = {
  id: "501", event_id: "9001", event_type: "deposit.confirmed", status: "confirmed", wallet_id: "42", custom_id: "user-7",
  chain: "TRON", network: "nile", asset: "USDT", token_standard: "TRC20", decimals: 6,
  address: "TXngH8bVadn9ZWtKBgjKQcqN1GsZ7A1jcb", source: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", contract: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
  amount: "2500000", txid: "c0ffee0000000000000000000000000000000000000000000000000000000001", log_index: 0,
  block_number: "61000000", block_time: "2026-11-21T10:15:00.000000Z", created_at: "2026-11-21T10:16:03.000000Z", revision: 1,
  confirmation_type: "block_6", confirmations: 6, block_hash: "0000000003a2c9400000000000000000000000000000000000000000000000ff"
}

const seal = (event, key = webhookKey) => ({
  body: JSON.stringify(sealEnvelope({ key: Buffer.from(key, "base64"), plaintext: JSON.stringify(event), timestamp: new Date().toISOString(), nonce: randomBytes(12) })),
  headers: { "content-type": "application/json", "x-app-id": appId, "x-event-id": event.event_id, "x-event-type": event.event_type }
})

const post = async (url, delivery) => {
  const response = await fetch(url, { method: "POST", headers: delivery.headers, body: delivery.body })
  return `${response.status} ${await response.text()}`
}

const exercise = async (name, url, booked) => {
  const genuine = seal(deposit)
  check(await post(url, genuine) === "200 {\"code\":0}", `${name}: a genuine delivery is acknowledged`)
  check(await post(url, genuine) === "200 {\"code\":0}", `${name}: its repeat is acknowledged`)
  check(booked.length === 1, `${name}: booked once, not twice (${booked.length})`)
  const forged = seal({ ...deposit, event_id: "9002", revision: 2 }, randomBytes(32).toString("base64"))
  check((await post(url, forged)).startsWith("400 "), `${name}: a forged delivery is refused`)
  check(booked.length === 1, `${name}: nothing forged is booked`)
  console.log(`[${name}] booked once, repeat acknowledged, forgery refused`)
}

// Express: the handler on its route, the app's JSON parser on the others.
const expressBooked = []
const app = express()
app.post("/webhooks/collector", expressWebhookHandler({ appId, webhookKey, onDeposit: (d) => void expressBooked.push(d.id) }))
app.use(express.json())
const expressServer = await new Promise((resolve) => {
  const server = app.listen(0, "127.0.0.1", () => resolve(server))
})

// Fastify: the plugin keeps JSON raw in its own scope only.
const fastifyBooked = []
const fastify = Fastify()
await fastify.register(fastifyWebhookPlugin, { path: "/webhooks/collector", appId, webhookKey, onDeposit: (d) => void fastifyBooked.push(d.id) })
fastify.post("/orders", async (request) => ({ parsed: typeof request.body === "object" }))
await fastify.listen({ port: 0, host: "127.0.0.1" })

let failed = false
try {
  await exercise("express", `http://127.0.0.1:${expressServer.address().port}/webhooks/collector`, expressBooked)
  const fastifyUrl = `http://127.0.0.1:${fastify.server.address().port}`
  await exercise("fastify", `${fastifyUrl}/webhooks/collector`, fastifyBooked)
  const other = await fetch(`${fastifyUrl}/orders`, { method: "POST", headers: { "content-type": "application/json" }, body: "{\"a\":1}" })
  check((await other.json()).parsed === true, "fastify: the app's other routes still parse JSON")
  console.log("[frameworks] every check held")
} catch (error) {
  failed = true
  console.error(`frameworks failed: ${error?.stack ?? error}`)
} finally {
  expressServer.close()
  await fastify.close()
}
process.exit(failed ? 1 : 0)
