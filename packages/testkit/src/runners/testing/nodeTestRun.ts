// Run by OtherRunners.test.ts under node:test in a process of its own (no vitest loaded): the
// tenant's test a README shows, as a node:test file.
import assert from "node:assert/strict"
import { test } from "node:test"
import { Effect } from "effect"
import { receiveWebhook } from "@collector/sdk"
import { TestCollector } from "../../index.js"

test("a minted transfer becomes a deposit.confirmed webhook", async () => {
  const program = Effect.gen(function*() {
    const collector = yield* TestCollector
    const tenant = yield* collector.createTenant({ confirmationRule: "block_1", webhookUrl: "https://shop.example/hooks" })
    const wallet = yield* collector.createWallet(tenant, "customer-42")
    const txid = yield* collector.mint(wallet.address, 25_000_000n)
    yield* collector.mine(1)
    yield* collector.runUntilIdle
    const [delivery] = yield* collector.webhooks(tenant)
    const event = yield* receiveWebhook({ body: delivery!.body, headers: delivery!.headers, webhookKey: tenant.webhookKey, appId: tenant.appId })
    return { event, txid, address: wallet.address }
  })
  const { address, event, txid } = await Effect.runPromise(program.pipe(Effect.provide(TestCollector.layer())))
  assert.equal(event.event_type, "deposit.confirmed")
  assert.equal((event as { txid: string }).txid, txid)
  assert.equal((event as { address: string }).address, address)
  assert.equal((event as { amount: string }).amount, "25000000")
})
