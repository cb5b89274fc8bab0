// A tenant's integration test under jest (ES modules, run with --experimental-vm-modules; `test` and
// `expect` are jest's globals): the collector runs inside the test (its real
// engine on memory storage, a simulated TRON chain), and the captured webhook is fed to the
// tenant's own receiver, built on the SDK's Promise helpers. No vitest anywhere; jest's own expect.
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
  expect(webhooks).toHaveLength(1)
  const first = await receive(webhooks[0].body, webhooks[0].headers)
  expect(first.outcome).toBe("applied")
  expect(first.status).toBe(200)
  expect((await receive(webhooks[0].body, webhooks[0].headers)).outcome).toBe("duplicate")
  expect(booked).toHaveLength(1)
  expect(booked[0].event_type).toBe("deposit.confirmed")
  expect(booked[0].txid).toBe(txid)
  expect(booked[0].address).toBe(wallet.address)
  expect(booked[0].amount).toBe("25000000")
})
