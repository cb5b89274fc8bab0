import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, Redacted } from "effect"
import { receiveWebhook } from "./receiveWebhook.js"
import { sampleDeposit, sealDelivery, sealEvent, testAppId, testKey, type TestDelivery, webhookVector } from "./TestDeliveries.js"
import type { WebhookRejectionReason } from "./WebhookRejected.js"

const receive = (delivery: TestDelivery, key: string = testKey) =>
  Effect.runSync(Effect.either(receiveWebhook({ ...delivery, webhookKey: Redacted.make(key), appId: testAppId })))

const reasonOf = (delivery: TestDelivery, key?: string): WebhookRejectionReason | undefined =>
  Either.match(receive(delivery, key), { onLeft: (rejected) => rejected.reason, onRight: () => undefined })

const withEnvelope = (delivery: TestDelivery, change: (envelope: Record<string, unknown>) => Record<string, unknown>): TestDelivery => ({
  ...delivery,
  body: JSON.stringify(change(JSON.parse(delivery.body)))
})

const vectorDelivery: TestDelivery = { body: JSON.stringify(webhookVector.envelope), headers: webhookVector.headers }
const deposit = sampleDeposit()
const depositDelivery = () => sealEvent(deposit)

describe("receiveWebhook", () => {
  it("opens the contract's worked example into the typed sweep event", () => {
    const event = Either.getOrThrow(receive(vectorDelivery))
    expect(event).toEqual(JSON.parse(webhookVector.plaintext))
    expect(event.event_type).toBe("sweep.succeeded")
  })

  it("takes the body as bytes and the headers as a fetch Headers object", () => {
    const result = Effect.runSync(receiveWebhook({
      body: new TextEncoder().encode(vectorDelivery.body),
      headers: new Headers(vectorDelivery.headers),
      webhookKey: testKey,
      appId: testAppId
    }))
    expect(result.event_id).toBe("7001")
  })

  it("round-trips a deposit event sealed with the service's sealEnvelope, all 24 fields typed", () => {
    const event = Either.getOrThrow(receive(depositDelivery()))
    expect(event).toEqual(deposit)
    expect(Object.keys(event)).toHaveLength(24)
  })

  it("accepts a reverted deposit with null confirmations and block hash", () => {
    const reverted = sampleDeposit({ event_id: "9002", event_type: "deposit.reverted", status: "reverted", revision: 2, confirmations: null, block_hash: null })
    expect(Either.getOrThrow(receive(sealEvent(reverted)))).toEqual(reverted)
  })

  it("accepts the sweep result body of every outcome, with amounts beyond 2^53 kept exact", () => {
    const sweep = JSON.parse(webhookVector.plaintext)
    for (const status of ["succeeded", "failed", "cancelled"] as const) {
      const body = {
        ...sweep,
        event_type: `sweep.${status}`,
        status,
        txid: status === "cancelled" ? "" : sweep.txid,
        reason: status === "succeeded" ? "" : "energy rental failed",
        amount: "90071992547409930001",
        actual_fee: "9007199254740993"
      }
      expect(Either.getOrThrow(receive(sealEvent(body)))).toEqual(body)
    }
  })

  it("refuses tampered ciphertext, nonce and timestamp, and the wrong key", () => {
    const flip = (text: string) => {
      const bytes = Buffer.from(text, "base64")
      bytes[0]! ^= 1
      return bytes.toString("base64")
    }
    const delivery = depositDelivery()
    expect(reasonOf(withEnvelope(delivery, (e) => ({ ...e, ciphertext: flip(e.ciphertext as string) })))).toBe("authentication-failed")
    expect(reasonOf(withEnvelope(delivery, (e) => ({ ...e, nonce: flip(e.nonce as string) })))).toBe("authentication-failed")
    expect(reasonOf(withEnvelope(delivery, (e) => ({ ...e, timestamp: "2026-11-21T10:16:04.000002Z" })))).toBe("authentication-failed")
    expect(reasonOf(delivery, Buffer.alloc(32, 7).toString("base64"))).toBe("authentication-failed")
    expect(reasonOf(withEnvelope(delivery, (e) => ({ ...e, nonce: "AAAA" })))).toBe("bad-nonce")
    expect(reasonOf(withEnvelope(delivery, (e) => ({ ...e, ciphertext: "not base64!" })))).toBe("bad-ciphertext")
  })

  it("refuses a delivery for another app, or without X-App-Id", () => {
    expect(reasonOf(sealEvent(deposit, { appId: "1000002" }))).toBe("app-id-mismatch")
    const { "x-app-id": _, ...headers } = depositDelivery().headers
    expect(reasonOf({ ...depositDelivery(), headers })).toBe("app-id-mismatch")
  })

  it("refuses headers that disagree with the payload", () => {
    const delivery = depositDelivery()
    expect(reasonOf({ ...delivery, headers: { ...delivery.headers, "x-event-id": "9999" } })).toBe("event-id-mismatch")
    expect(reasonOf({ ...delivery, headers: { ...delivery.headers, "x-event-type": "deposit.reverted" } })).toBe("event-type-mismatch")
    const { "x-event-id": _, ...withoutId } = delivery.headers
    expect(reasonOf({ ...delivery, headers: withoutId })).toBe("event-id-mismatch")
  })

  it("refuses an envelope with an extra or missing member, another version or algorithm, or a timestamp that is not RFC 3339", () => {
    const delivery = depositDelivery()
    expect(reasonOf(withEnvelope(delivery, (e) => ({ ...e, extra: 1 })))).toBe("invalid-envelope")
    expect(reasonOf(withEnvelope(delivery, ({ version: _, ...e }) => e))).toBe("invalid-envelope")
    expect(reasonOf(withEnvelope(delivery, (e) => ({ ...e, version: "2" })))).toBe("invalid-envelope")
    expect(reasonOf(withEnvelope(delivery, (e) => ({ ...e, algorithm: "AES-128-GCM" })))).toBe("invalid-envelope")
    // Sealed with this timestamp, so only the RFC 3339 check can refuse it.
    expect(reasonOf(sealEvent(deposit, { timestamp: "21 Nov 2026 10:16:04" }))).toBe("invalid-envelope")
  })

  it("refuses a body that is not one strict JSON object", () => {
    const delivery = depositDelivery()
    expect(reasonOf({ ...delivery, body: "not json" })).toBe("malformed-envelope")
    expect(reasonOf({ ...delivery, body: "" })).toBe("malformed-envelope")
    expect(reasonOf({ ...delivery, body: "[]" })).toBe("malformed-envelope")
    expect(reasonOf({ ...delivery, body: delivery.body.replace("{", "{\"version\":\"1\",") })).toBe("malformed-envelope")
  })

  it("refuses a content type other than JSON and accepts charset=utf-8", () => {
    const delivery = depositDelivery()
    expect(reasonOf({ ...delivery, headers: { ...delivery.headers, "content-type": "text/plain" } })).toBe("content-type-not-json")
    expect(reasonOf({ ...delivery, headers: { ...delivery.headers, "content-type": "application/json; charset=latin1" } })).toBe("content-type-not-json")
    const { "content-type": _, ...withoutType } = delivery.headers
    expect(reasonOf({ ...delivery, headers: withoutType })).toBe("content-type-not-json")
    expect(reasonOf({ ...delivery, headers: { ...delivery.headers, "content-type": "Application/JSON; charset=UTF-8" } })).toBeUndefined()
  })

  it("refuses an authentic payload that is not exactly one of the event bodies", () => {
    const event = { event_id: "9001", event_type: "deposit.confirmed" }
    expect(reasonOf(sealEvent({ ...deposit, memo: "extra" }))).toBe("invalid-payload")
    expect(reasonOf(sealEvent({ ...deposit, revision: "1" } as never))).toBe("invalid-payload")
    expect(reasonOf(sealEvent({ ...deposit, status: "reverted" }))).toBe("invalid-payload")
    const { block_hash: _, ...missing } = deposit
    expect(reasonOf(sealDelivery(JSON.stringify(missing), event))).toBe("invalid-payload")
    const sweep = JSON.parse(webhookVector.plaintext)
    expect(reasonOf(sealEvent({ ...sweep, status: "failed" }))).toBe("invalid-payload")
    expect(reasonOf(sealEvent({ ...sweep, event_type: "sweep.started" }))).toBe("invalid-payload")
    expect(reasonOf(sealEvent({ ...sweep, event_id: "7002" }))).toBe("invalid-payload")
    expect(reasonOf(sealEvent({ ...sweep, task_id: "07001", event_id: "07001" }))).toBe("invalid-payload")
    expect(reasonOf(sealEvent({ ...sweep, amount: "1.5" }))).toBe("invalid-payload")
    expect(reasonOf(sealEvent({ ...sweep, actual_fee: 0 }))).toBe("invalid-payload")
    expect(reasonOf(sealEvent({ ...sweep, network: "shasta" }))).toBe("invalid-payload")
    expect(reasonOf(sealDelivery("{\"event_id\":\"1\",\"event_id\":\"2\"}", event))).toBe("malformed-payload")
    expect(reasonOf(sealDelivery("not json", event))).toBe("malformed-payload")
  })

  it("never puts key material into a rejection", () => {
    const rejected = Option.getOrThrow(Either.getLeft(receive(depositDelivery(), Buffer.alloc(32, 7).toString("base64"))))
    const text = JSON.stringify(rejected) + rejected.message
    expect(text).not.toContain(testKey)
    expect(text).not.toContain(Buffer.alloc(32, 7).toString("base64"))
  })

  it("dies, without echoing the key, when the configured key is not base64 of 32 bytes", () => {
    const exit = Effect.runSyncExit(receiveWebhook({ ...depositDelivery(), webhookKey: "c2hvcnQ=", appId: testAppId }))
    expect(exit._tag).toBe("Failure")
    expect(JSON.stringify(exit)).not.toContain("c2hvcnQ=")
  })
})
