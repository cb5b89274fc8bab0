import { describe, expect, it } from "vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { sampleDeposit, sealEvent, testAppId, testKey, type TestDelivery, webhookVector } from "../../webhook/TestDeliveries.js"
import { CollectorError, MemoryWebhookStore, nodeWebhookHandler, verifyAndOpen, WebhookVerificationError } from "../../index.js"

// Deliveries POSTed over real sockets to a node:http server running the SDK's listener.
const serve = async (listener: Parameters<typeof createServer>[1]) => {
  const server: Server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  return { url, close: () => new Promise((resolve) => server.close(resolve)) }
}

const post = async (url: string, delivery: TestDelivery) => {
  const response = await fetch(url, { method: "POST", headers: delivery.headers, body: delivery.body })
  return { status: response.status, body: await response.json() }
}

describe("verifyAndOpen", () => {
  it("opens the contract's worked example to its plaintext", () => {
    const event = verifyAndOpen(JSON.stringify(webhookVector.envelope), webhookVector.headers, webhookVector.webhook_key, { appId: "1000001" })
    expect(event).toEqual(JSON.parse(webhookVector.plaintext))
  })

  it("throws a WebhookVerificationError naming the failed check", () => {
    const tampered = { ...webhookVector.envelope, timestamp: "2026-11-21T10:15:31.123456Z" }
    const error = (() => {
      try {
        verifyAndOpen(JSON.stringify(tampered), webhookVector.headers, webhookVector.webhook_key)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(WebhookVerificationError)
    expect(error).toBeInstanceOf(CollectorError)
    expect(error).toMatchObject({ reason: "authentication-failed" })
    expect(() => verifyAndOpen(JSON.stringify(webhookVector.envelope), webhookVector.headers, webhookVector.webhook_key, { appId: "1000002" }))
      .toThrow(/app-id-mismatch/)
    expect(() => verifyAndOpen("{}", webhookVector.headers, "short")).toThrow(TypeError)
  })
})

describe("nodeWebhookHandler", () => {
  it("books once, acknowledges duplicates and older revisions, refuses forgeries, and retries a failed booking", async () => {
    const booked: Array<string> = []
    let failNext = false
    const store = new MemoryWebhookStore()
    const { url, close } = await serve(nodeWebhookHandler({
      webhookKey: testKey,
      appId: testAppId,
      store,
      onDeposit: async (deposit) => {
        if (failNext) {
          failNext = false
          throw new Error("ledger down")
        }
        booked.push(`${deposit.id}/${deposit.revision}`)
      }
    }))
    try {
      const second = sealEvent(sampleDeposit({ event_id: "9002", revision: 2, event_type: "deposit.reverted", status: "reverted" }))
      const first = sealEvent(sampleDeposit({ event_id: "9001", revision: 1 }))
      const ack = { status: 200, body: { code: 0 } }
      expect(await post(url, second)).toEqual(ack)
      expect(await post(url, second)).toEqual(ack)
      expect(await post(url, first)).toEqual(ack)
      expect(booked).toEqual(["501/2"])
      // Sealed under another key: refused, nothing booked.
      const forged = sealEvent(sampleDeposit({ event_id: "9003", revision: 3 }), { key: Buffer.alloc(32, 9).toString("base64") })
      expect(await post(url, forged)).toEqual({ status: 400, body: { code: 400, message: "webhook rejected: authentication-failed" } })
      // A failed booking is not acknowledged, and the next delivery of it books it.
      const third = sealEvent(sampleDeposit({ event_id: "9004", revision: 3 }))
      failNext = true
      expect((await post(url, third)).status).toBe(500)
      expect(await post(url, third)).toEqual(ack)
      expect(booked).toEqual(["501/2", "501/3"])
      expect(store.revisions.get("501")).toBe(3)
    } finally {
      await close()
    }
  })

  it("takes a body a raw parser already read, and refuses one a JSON parser consumed", async () => {
    const booked: Array<string> = []
    const options = { webhookKey: testKey, appId: testAppId, onDeposit: (d: { id: string }) => void booked.push(d.id) }
    const delivery = sealEvent(sampleDeposit())
    const raw = nodeWebhookHandler(options)
    const rawServer = await serve((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (c: Buffer) => chunks.push(c))
      request.on("end", () => {
        Object.assign(request, { body: Buffer.concat(chunks) })
        void raw(request, response)
      })
    })
    const parsed = nodeWebhookHandler(options)
    const parsedServer = await serve((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (c: Buffer) => chunks.push(c))
      request.on("end", () => {
        Object.assign(request, { body: JSON.parse(Buffer.concat(chunks).toString()) })
        void parsed(request, response)
      })
    })
    try {
      expect(await post(rawServer.url, delivery)).toEqual({ status: 200, body: { code: 0 } })
      expect(booked).toEqual(["501"])
      const refused = await post(parsedServer.url, delivery)
      expect(refused.status).toBe(500)
      expect(refused.body.message).toMatch(/before JSON body parsers/)
    } finally {
      await rawServer.close()
      await parsedServer.close()
    }
  })

  it("answers 413 to a body over the limit", async () => {
    const { url, close } = await serve(nodeWebhookHandler({ webhookKey: testKey, appId: testAppId, maxBodyBytes: 100 }))
    try {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(1000) }).catch((e: unknown) => e)
      // The listener closes the connection once it has answered; fetch may see the answer or the close.
      if (response instanceof Response) expect(response.status).toBe(413)
      else expect(response).toBeInstanceOf(Error)
    } finally {
      await close()
    }
  })
})

describe("MemoryWebhookStore", () => {
  it("books revisions of one deposit one after another, highest last", async () => {
    const store = new MemoryWebhookStore()
    const order: Array<number> = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const two = store.bookIfHigher("d", 2, async () => {
      await gate
      order.push(2)
    })
    // Revision 3 arrives while 2 is booking; 1 after both.
    const three = store.bookIfHigher("d", 3, async () => void order.push(3))
    release()
    expect(await two).toEqual({ applied: true, value: undefined })
    expect(await three).toEqual({ applied: true, value: undefined })
    expect(await store.bookIfHigher("d", 1, async () => void order.push(1))).toEqual({ applied: false, highestBooked: 3 })
    expect(order).toEqual([2, 3])
  })
})
