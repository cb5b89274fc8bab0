// The store's promises to the SDK's receivers (WebhookStore in @collector/sdk), checked on a real
// PostgreSQL server: an event is claimed by exactly one of concurrent deliveries, and a deposit's
// revisions are booked only upwards, one at a time, and kept only when the booking succeeds.
import assert from "node:assert/strict"
import { after, before, describe, test } from "node:test"
import { setTimeout as sleep } from "node:timers/promises"
import { PgWebhookStore } from "./PgWebhookStore.js"
import { createWebhookStoreTables } from "./schema.js"
import { skipReason, throwAwayDatabase } from "./testDatabase.js"

if (skipReason) console.log(`tenant-webhook-pg: skipped, ${skipReason}`)

describe("PgWebhookStore", { skip: skipReason }, () => {
  let database
  let store
  before(async () => {
    database = await throwAwayDatabase()
    await createWebhookStoreTables(database.pool)
    store = new PgWebhookStore(database.pool)
  })
  after(async () => {
    await database?.drop()
  })

  test("of concurrent claims of one event exactly one wins; once completed it is processed for good", async () => {
    const key = { appId: "1000001", eventId: "9001" }
    const answers = await Promise.all(Array.from({ length: 10 }, () => store.claim(key)))
    assert.equal(answers.filter((answer) => answer === "claimed").length, 1)
    assert.deepEqual(answers.filter((answer) => answer !== "claimed"), Array(9).fill("in-progress"))
    await store.complete(key)
    await store.release(key)
    assert.equal(await store.claim(key), "processed")
    // Events are unique per app: the same event ID of another app is another event.
    assert.equal(await store.claim({ appId: "1000002", eventId: "9001" }), "claimed")
  })

  test("a released claim can be claimed by the next delivery", async () => {
    const key = { appId: "1000001", eventId: "9002" }
    assert.equal(await store.claim(key), "claimed")
    await store.release(key)
    assert.equal(await store.claim(key), "claimed")
  })

  test("only a revision above the highest booked is booked", async () => {
    const booked = []
    const book = (revision) => store.bookIfHigher("501", revision, async () => {
      booked.push(revision)
      return `booked ${revision}`
    })
    assert.deepEqual(await book(2), { applied: true, value: "booked 2" })
    assert.deepEqual(await book(2), { applied: false, highestBooked: 2 })
    assert.deepEqual(await book(1), { applied: false, highestBooked: 2 })
    assert.deepEqual(await book(3), { applied: true, value: "booked 3" })
    assert.deepEqual(booked, [2, 3])
  })

  test("a failed booking keeps the old revision, so the delivery's retry books it", async () => {
    await store.bookIfHigher("502", 1, async () => {})
    await assert.rejects(store.bookIfHigher("502", 2, async () => {
      throw new Error("ledger down")
    }), /ledger down/)
    const { rows } = await database.pool.query("SELECT revision FROM deposit_revisions WHERE deposit_id = '502'")
    assert.equal(rows[0].revision, 1)
    assert.equal((await store.bookIfHigher("502", 2, async () => "retried")).applied, true)
  })

  test("a booking written through the transaction's client rolls back with its revision", async () => {
    await database.pool.query("CREATE TABLE ledger (deposit_id text, revision integer)")
    const bookInto = (revision, fail) => async (db) => {
      await db.query("INSERT INTO ledger VALUES ('504', $1)", [revision])
      if (fail) throw new Error("after the write")
    }
    await store.bookIfHigher("504", 1, bookInto(1, false))
    await assert.rejects(store.bookIfHigher("504", 2, bookInto(2, true)), /after the write/)
    const { rows } = await database.pool.query("SELECT revision FROM ledger WHERE deposit_id = '504'")
    assert.deepEqual(rows, [{ revision: 1 }])
  })

  test("concurrent revisions of one deposit are booked one at a time and never downwards", async () => {
    const booked = []
    let running = 0
    const slowBook = (revision) => async () => {
      running += 1
      assert.equal(running, 1, "two bookings of one deposit ran at once")
      booked.push(revision)
      await sleep(20)
      running -= 1
    }
    const revisions = [3, 1, 2, 5, 4, 5, 2]
    const results = await Promise.all(revisions.map((revision) => store.bookIfHigher("503", revision, slowBook(revision))))
    assert.ok(booked.includes(5))
    assert.deepEqual(booked, [...booked].sort((a, b) => a - b))
    assert.equal(new Set(booked).size, booked.length)
    assert.equal(results.filter((result) => result.applied).length, booked.length)
    const { rows } = await database.pool.query("SELECT revision FROM deposit_revisions WHERE deposit_id = '503'")
    assert.equal(rows[0].revision, 5)
  })
})
