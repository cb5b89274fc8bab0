import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Redacted } from "effect"
import { type RunningReceiver, startReceiver } from "../../../../docs/examples/webhook-receiver.js"
import { sampleDeposit, sealEvent, testAppId, testKey, type TestDelivery, webhookVector } from "./TestDeliveries.js"

// The runnable example of docs/examples, started for real and spoken to over HTTP the way the
// service's delivery worker speaks to it.
let receiver: RunningReceiver
beforeAll(async () => {
  receiver = await startReceiver({ webhookKey: Redacted.make(testKey), appId: testAppId, port: 0, host: "127.0.0.1" })
})
afterAll(() => receiver.close())

const post = async (delivery: TestDelivery) => {
  const response = await fetch(receiver.url, { method: "POST", headers: delivery.headers, body: delivery.body })
  return { status: response.status, contentType: response.headers.get("content-type"), body: await response.text() }
}

describe("example webhook receiver (docs/examples/webhook-receiver.ts)", () => {
  it("acknowledges a sealed deposit with exactly 200 {\"code\":0}, and a replay without booking it twice", async () => {
    const deposit = sampleDeposit({ id: "801", event_id: "9801" })
    const delivery = sealEvent(deposit)
    const acknowledgement = { status: 200, contentType: "application/json", body: "{\"code\":0}" }
    expect(await post(delivery)).toEqual(acknowledgement)
    expect(JSON.parse((await post(delivery)).body)).toEqual(webhookVector.acknowledgement.body)
    // A new attempt of the same event carries a new nonce and timestamp, and is still a duplicate.
    expect(await post(sealEvent(deposit, { timestamp: "2026-11-21T10:16:14.000001Z" }))).toEqual(acknowledgement)
    expect(receiver.booked.filter((event) => event.event_id === "9801")).toEqual([deposit])
  })

  it("acknowledges an older deposit revision under a new event without booking it", async () => {
    const newer = sampleDeposit({ id: "802", event_id: "9803", revision: 2, event_type: "deposit.reverted", status: "reverted" })
    const older = sampleDeposit({ id: "802", event_id: "9802", revision: 1 })
    expect((await post(sealEvent(newer))).status).toBe(200)
    expect(await post(sealEvent(older))).toMatchObject({ status: 200, body: "{\"code\":0}" })
    expect(receiver.booked.filter((event) => "id" in event && event.id === "802")).toEqual([newer])
  })

  it("books the worked example's sweep result", async () => {
    expect(await post({ body: JSON.stringify(webhookVector.envelope), headers: webhookVector.headers })).toMatchObject({ status: 200, body: "{\"code\":0}" })
    expect(receiver.booked.some((event) => event.event_id === "7001" && event.event_type === "sweep.succeeded")).toBe(true)
  })

  it("answers a forged delivery with 400 and books nothing", async () => {
    const before = receiver.booked.length
    const forged = sealEvent(sampleDeposit({ id: "803", event_id: "9804" }), { key: Buffer.alloc(32, 9).toString("base64") })
    const answer = await post(forged)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toEqual({ code: 400, message: "webhook rejected: authentication-failed" })
    expect(receiver.booked.length).toBe(before)
  })

  it("answers other paths and methods without touching the stores", async () => {
    expect((await fetch(receiver.url.replace("/webhooks/collector", "/other"), { method: "POST" })).status).toBe(404)
    expect((await fetch(receiver.url)).status).toBe(405)
  })
})
