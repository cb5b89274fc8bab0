import { serverErrorReply } from "@collector/core/testing"
import { expect, it } from "@effect/vitest"
import { Clock, Effect, Exit, TestClock, TestContext } from "effect"
import { TestCollector } from "./TestCollector.js"
import { defaultStartTime } from "./TestTime.js"

/** A test on a new, empty kit built on the test's TestClock. */
const kitTest = <A, E>(name: string, body: Effect.Effect<A, E, TestCollector>) =>
  it.effect(name, () => body.pipe(Effect.provide(TestCollector.layer())))

const hookUrl = "https://shop.example/hooks/collector"
const usdt = (whole: bigint) => whole * 1_000_000n

/** A tenant booking on block_1 with webhooks on, and one wallet. */
const tenantWithWallet = Effect.gen(function*() {
  const kit = yield* TestCollector
  const tenant = yield* kit.createTenant({ confirmationRule: "block_1", webhookUrl: hookUrl })
  const wallet = yield* kit.createWallet(tenant, "customer-1")
  return { kit, tenant, wallet }
})

/** A deposit, then a reorganisation that drops it: what a tenant sees of both. */
const depositThenReorg = Effect.gen(function*() {
  const { kit, tenant, wallet } = yield* tenantWithWallet
  const txid = yield* kit.mint(wallet.address, usdt(5n))
  yield* kit.mine(1)
  yield* kit.runUntilIdle
  const confirmed = yield* kit.deposits(tenant)
  yield* kit.reorg(1, [txid])
  yield* kit.runUntilIdle
  const reverted = yield* kit.deposits(tenant)
  const webhooks = yield* kit.webhooks(tenant)
  const events = yield* kit.webhookEvents(tenant)
  return { tenant, wallet, txid, confirmed, reverted, webhooks, events }
})

kitTest("a deposit is booked under the tenant's rule and its webhook arrives sealed, opening to the same record",
  Effect.gen(function*() {
    const { kit, tenant, wallet } = yield* tenantWithWallet
    const txid = yield* kit.mint(wallet.address, usdt(5n))
    const [block] = yield* kit.mine(1)
    const run = yield* kit.runUntilIdle
    expect(run.notified).toBe(1)
    const deposits = yield* kit.deposits(tenant)
    expect(deposits).toEqual([
      expect.objectContaining({
        status: "confirmed",
        event_type: "deposit.confirmed",
        revision: 1,
        wallet_id: wallet.id,
        custom_id: "customer-1",
        address: wallet.address,
        amount: "5000000",
        txid,
        block_number: block!.number.toString(),
        block_hash: block!.hash,
        confirmation_type: "block_1",
        confirmations: 1,
        network: "nile"
      })
    ])
    const [webhook, ...more] = yield* kit.webhooks(tenant)
    expect(more).toEqual([])
    expect(webhook!.url).toBe(hookUrl)
    expect(webhook!.headers).toEqual({
      "Content-Type": "application/json",
      "X-App-Id": tenant.appId,
      "X-Event-Id": deposits[0]!.event_id,
      "X-Event-Type": "deposit.confirmed"
    })
    // Sealed: the body is the envelope, the deposit is not readable in it.
    expect(Object.keys(JSON.parse(webhook!.body)).sort()).toEqual(["algorithm", "ciphertext", "nonce", "timestamp", "version"])
    expect(webhook!.body).not.toContain(txid)
    expect(yield* kit.openWebhook(tenant, webhook!)).toEqual(deposits[0])
  }))

kitTest("a reorganisation that drops the transfer reverts the deposit: revision 2 under the same ID, a deposit.reverted webhook",
  Effect.gen(function*() {
    const { confirmed, events, reverted, txid, webhooks } = yield* depositThenReorg
    expect(confirmed).toEqual([expect.objectContaining({ status: "confirmed", revision: 1, txid })])
    expect(reverted).toEqual([expect.objectContaining({ id: confirmed[0]!.id, status: "reverted", revision: 2, txid })])
    expect(reverted[0]!.event_id).not.toBe(confirmed[0]!.event_id)
    expect(webhooks.map((w) => w.headers["X-Event-Type"])).toEqual(["deposit.confirmed", "deposit.reverted"])
    expect(events).toEqual([confirmed[0], reverted[0]])
  }))

it.effect("the same test twice gives the same IDs, txids, addresses and sealed webhook bodies", () =>
  Effect.gen(function*() {
    // Each run on a TestClock of its own, as two runs of a test file are.
    const once = () => depositThenReorg.pipe(Effect.provide(TestCollector.layer()), Effect.provide(TestContext.TestContext))
    const first = yield* once()
    const second = yield* once()
    expect(second).toEqual(first)
    expect(first.reverted[0]!.created_at).toBe(new Date(defaultStartTime + 3_000).toISOString().replace("Z", "000Z"))
    // Another seed is another world.
    const other = yield* depositThenReorg.pipe(Effect.provide(TestCollector.layer({ seed: "other" })), Effect.provide(TestContext.TestContext))
    expect(other.wallet.address).not.toBe(first.wallet.address)
    expect(other.txid).not.toBe(first.txid)
  }))

kitTest("under the default rule a deposit waits until its block is solidified, 19 blocks below the head",
  Effect.gen(function*() {
    const kit = yield* TestCollector
    const tenant = yield* kit.createTenant({ webhookUrl: hookUrl })
    const wallet = yield* kit.createWallet(tenant)
    yield* kit.mint(wallet.address, 1n)
    yield* kit.mine(19)
    yield* kit.runUntilIdle
    expect(yield* kit.deposits(tenant)).toEqual([])
    expect(yield* kit.webhooks(tenant)).toEqual([])
    yield* kit.mine(1)
    yield* kit.runUntilIdle
    expect(yield* kit.deposits(tenant)).toEqual([expect.objectContaining({ confirmation_type: "solidified", confirmations: null, amount: "1" })])
    expect(yield* kit.webhooks(tenant)).toHaveLength(1)
  }))

kitTest("blocks are one block interval apart on the TestClock, which the kit starts in 2026",
  Effect.gen(function*() {
    const kit = yield* TestCollector
    expect(yield* Clock.currentTimeMillis).toBe(defaultStartTime)
    const blocks = yield* kit.mine(3)
    expect(blocks.map((b) => b.time.getTime())).toEqual([defaultStartTime + 3_000, defaultStartTime + 6_000, defaultStartTime + 9_000])
    expect(yield* Clock.currentTimeMillis).toBe(defaultStartTime + 9_000)
  }))

it.effect("a clock the test set before the kit was built is left as it is", () =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.UTC(2030, 0, 1))
    const kit = yield* TestCollector.pipe(Effect.provide(TestCollector.layer()))
    const [block] = yield* kit.mine(1)
    expect(block!.time.getTime()).toBe(Date.UTC(2030, 0, 1) + 3_000)
  }))

kitTest("tenants see only their own deposits and webhooks; another tenant's key does not open them",
  Effect.gen(function*() {
    const { kit, tenant, wallet } = yield* tenantWithWallet
    const other = yield* kit.createTenant({ confirmationRule: "block_1", webhookUrl: "https://other.example/hook" })
    const otherWallet = yield* kit.createWallet(other)
    yield* kit.mint(wallet.address, 2n)
    yield* kit.mint(otherWallet.address, 3n)
    yield* kit.mine(1)
    yield* kit.runUntilIdle
    expect((yield* kit.deposits(tenant)).map((d) => d.amount)).toEqual(["2"])
    expect((yield* kit.deposits(other)).map((d) => d.amount)).toEqual(["3"])
    expect(yield* kit.webhooks()).toHaveLength(2)
    const [mine] = yield* kit.webhooks(tenant)
    expect(mine!.url).toBe(hookUrl)
    const refused = yield* Effect.flip(kit.openWebhook({ ...other, appId: tenant.appId }, mine!))
    expect(refused.reason).toBe("authentication-failed")
  }))

kitTest("webhook URLs are checked under the production rules",
  Effect.gen(function*() {
    const kit = yield* TestCollector
    const tenant = yield* kit.createTenant()
    for (const url of ["http://shop.example/hook", "https://shop.example:8443/hook", "https://10.0.0.1/hook"]) {
      const refused = yield* Effect.exit(kit.setWebhook(tenant, url))
      expect(Exit.isFailure(refused), url).toBe(true)
    }
    yield* kit.setWebhook(tenant, "https://203.0.114.20/hook")
  }))

kitTest("a receiver that fails gets the event again on the contract's schedule, with the same event ID",
  Effect.gen(function*() {
    const { kit, tenant, wallet } = yield* tenantWithWallet
    yield* kit.answerWebhooks(serverErrorReply)
    yield* kit.mint(wallet.address, usdt(1n))
    yield* kit.mine(1)
    yield* kit.runUntilIdle
    expect(yield* kit.webhooks(tenant)).toHaveLength(1)
    yield* kit.answerWebhooks({ _tag: "Respond", status: 200, body: '{"code":0}' })
    yield* kit.runUntilIdle
    expect(yield* kit.webhooks(tenant)).toHaveLength(1)
    // The second attempt is due 10 s (±10%) after the first.
    yield* TestClock.adjust("12 seconds")
    yield* kit.runUntilIdle
    const deliveries = yield* kit.webhooks(tenant)
    expect(deliveries.map((w) => w.headers["X-Event-Id"])).toEqual([deliveries[0]!.headers["X-Event-Id"], deliveries[0]!.headers["X-Event-Id"]])
    // A new encryption each attempt, the same event inside.
    expect(deliveries[1]!.body).not.toBe(deliveries[0]!.body)
    const [first, second] = yield* kit.webhookEvents(tenant)
    expect(second).toEqual(first)
  }))

kitTest("the engine and the chain are there for what the kit does not wrap",
  Effect.gen(function*() {
    const { kit, tenant, wallet } = yield* tenantWithWallet
    yield* kit.mint(wallet.address, 4n)
    yield* kit.mine(1)
    expect(yield* kit.engine.scanOnce).toBe(true)
    expect(yield* kit.engine.notifyOnce).toBe(1)
    expect((yield* kit.deposits(tenant)).map((d) => d.amount)).toContain("4")
  }))

it.live("on the live clock the kit works the same, with time passing by itself", () =>
  Effect.gen(function*() {
    const { kit, tenant, wallet } = yield* tenantWithWallet
    const started = yield* Clock.currentTimeMillis
    const txid = yield* kit.mint(wallet.address, 6n)
    yield* kit.mine(1)
    yield* kit.runUntilIdle
    expect(yield* kit.deposits(tenant)).toEqual([expect.objectContaining({ status: "confirmed", txid })])
    expect((yield* kit.webhookEvents(tenant)).map((e) => e.event_type)).toEqual(["deposit.confirmed"])
    expect((yield* Clock.currentTimeMillis) - started).toBeLessThan(10_000)
  }).pipe(Effect.provide(TestCollector.layer())))
