import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { readFileSync } from "node:fs"
import { openEnvelope, sealEnvelope } from "./WebhookEnvelope.js"

const vector = JSON.parse(readFileSync(new URL("../../../../test-fixtures/webhook-vector.json", import.meta.url), "utf8"))
const key = Buffer.from(vector.webhook_key, "base64")

describe("webhook envelope", () => {
  it("seals the contract's worked example byte for byte", () => {
    const sealed = sealEnvelope({
      key,
      plaintext: vector.plaintext,
      timestamp: vector.envelope.timestamp,
      nonce: Buffer.from(vector.envelope.nonce, "base64")
    })
    expect(sealed).toEqual(vector.envelope)
  })

  it("opens the worked example", () => {
    expect(openEnvelope(key, vector.envelope)).toEqual(Either.right(vector.plaintext))
  })

  it("refuses a changed timestamp, ciphertext, nonce or key", () => {
    const flipped = Buffer.from(vector.envelope.ciphertext, "base64")
    flipped[3]! ^= 1
    expect(openEnvelope(key, { ...vector.envelope, timestamp: "2026-11-21T10:15:30.123457Z" })).toEqual(Either.left("authentication failed"))
    expect(openEnvelope(key, { ...vector.envelope, ciphertext: flipped.toString("base64") })).toEqual(Either.left("authentication failed"))
    expect(openEnvelope(key, { ...vector.envelope, nonce: Buffer.alloc(12).toString("base64") })).toEqual(Either.left("authentication failed"))
    expect(openEnvelope(Buffer.alloc(32), vector.envelope)).toEqual(Either.left("authentication failed"))
    expect(openEnvelope(key, { ...vector.envelope, nonce: "short" })).toEqual(Either.left("bad nonce"))
    expect(openEnvelope(key, { ...vector.envelope, ciphertext: "@@" })).toEqual(Either.left("bad ciphertext"))
  })
})
