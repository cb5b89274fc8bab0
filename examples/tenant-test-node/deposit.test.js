// A tenant's integration test under node:test: the collector runs inside the test (its real
// engine on memory storage, a simulated TRON chain), and the captured webhook is fed to the
// tenant's own receiver, built on the SDK's Promise helpers. No vitest anywhere.
import assert from "node:assert/strict"
import { test } from "node:test"
import { createWebhookHandler } from "@collector/sdk"
import { TestCollector } from "@collector/testkit"
import { Effect } from "effect"

test("a minted transfer is booked from its deposit.confirmed webhook, once", async () => {
  const { tenant, txid, wallet, webhooks } = await Effect.runPromise(
    Effect.gen(function*() {
      const collector = yield* TestCollector
      const tenant = yield* collector.createTenant({ confirmationRule: "block_1", webhookUrl: "https://shop.example/hooks" })
      const wallet = yield* collector.createWallet(tenant, "customer-42")
      const txid = yield* collector.mint(wallet.address, 25_000_000n)
      yield* collector.mine(1)
      yield* collector.runUntilIdle
      return { tenant, txid, wallet, webhooks: yield* collector.webhooks(tenant) }
    }).pipe(Effect.provide(TestCollector.layer()))
  )
  const booked = []
  const receive = createWebhookHandler({ appId: tenant.appId, webhookKey: tenant.webhookKey, onDeposit: (d) => void booked.push(d) })
  assert.equal(webhooks.length, 1)
  const first = await receive(webhooks[0].body, webhooks[0].headers)
  assert.equal(first.outcome, "applied")
  assert.equal(first.status, 200)
  assert.equal((await receive(webhooks[0].body, webhooks[0].headers)).outcome, "duplicate")
  assert.equal(booked.length, 1)
  assert.equal(booked[0].event_type, "deposit.confirmed")
  assert.equal(booked[0].txid, txid)
  assert.equal(booked[0].address, wallet.address)
  assert.equal(booked[0].amount, "25000000")
})
