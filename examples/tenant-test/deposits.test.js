// A tenant's integration test: the collector runs inside this test (its real engine on memory
// storage, a simulated TRON chain), webhooks are captured exactly as our receiver would get
// them, and everything runs on the TestClock `it.effect` provides, so the test is the same on
// every run and on every machine.
import { TestCollector } from "@collector/testkit"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeLedger } from "./ledger.js"

const webhookUrl = "https://shop.example/collector/webhooks"

it.effect("a deposit is credited once confirmed and taken back when a reorganisation drops its transfer", () =>
  Effect.gen(function*() {
    const collector = yield* TestCollector
    // Our account: deposits count after 3 blocks, webhooks go to our receiver.
    const tenant = yield* collector.createTenant({ confirmationRule: "block_3", webhookUrl })
    const wallet = yield* collector.createWallet(tenant, "customer-42")
    const ledger = makeLedger({ appId: tenant.appId, webhookKey: tenant.webhookKey })

    // The customer pays 25 USDT. Two blocks on, it is not a deposit yet; the third confirms it.
    const txid = yield* collector.mint(wallet.address, 25_000_000n)
    yield* collector.mine(2)
    yield* collector.runUntilIdle
    expect(yield* collector.deposits(tenant)).toEqual([])
    expect(yield* collector.webhooks(tenant)).toEqual([])
    yield* collector.mine(1)
    yield* collector.runUntilIdle

    const [confirmed] = yield* collector.deposits(tenant)
    expect(confirmed).toMatchObject({
      status: "confirmed",
      revision: 1,
      txid,
      address: wallet.address,
      custom_id: "customer-42",
      amount: "25000000",
      confirmation_type: "block_3",
      confirmations: 3
    })
    const [confirmedWebhook] = yield* collector.webhooks(tenant)
    expect(confirmedWebhook.url).toBe(webhookUrl)
    expect(confirmedWebhook.headers).toMatchObject({ "X-Event-Type": "deposit.confirmed", "X-Event-Id": confirmed.event_id })
    expect(yield* collector.openWebhook(tenant, confirmedWebhook)).toEqual(confirmed)
    expect(yield* ledger.receive(confirmedWebhook)).toBe("applied")
    expect(ledger.balanceOf("customer-42")).toBe(25_000_000n)

    // The three blocks are replaced by a longer fork that does not carry the transfer.
    yield* collector.reorg(3, [txid])
    yield* collector.runUntilIdle

    const [reverted] = yield* collector.deposits(tenant)
    expect(reverted).toMatchObject({ id: confirmed.id, status: "reverted", txid, amount: "25000000" })
    expect(reverted.revision).toBeGreaterThan(confirmed.revision)
    const webhooks = yield* collector.webhooks(tenant)
    expect(webhooks).toHaveLength(2)
    const revertedEvent = yield* collector.openWebhook(tenant, webhooks[1])
    expect(revertedEvent).toMatchObject({ event_type: "deposit.reverted", id: confirmed.id, revision: reverted.revision })
    expect(yield* ledger.receive(webhooks[1])).toBe("applied")
    expect(ledger.balanceOf("customer-42")).toBe(0n)

    // A late retry of the first webhook is a duplicate: the customer is not credited again.
    expect(yield* ledger.receive(confirmedWebhook)).toBe("duplicate")
    expect(ledger.balanceOf("customer-42")).toBe(0n)
  }).pipe(Effect.provide(TestCollector.layer())))
