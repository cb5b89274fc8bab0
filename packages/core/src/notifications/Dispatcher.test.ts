import { SettingsRepository } from "../settings/SettingsRepository.js"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Exit, Fiber, Layer, Random, Ref, TestClock } from "effect"
import { ComponentStatus } from "../engine/ComponentStatus.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"
import type { EventId } from "../deposits/Deposit.js"
import type { Network } from "../kernel/Network.js"
import type { TenantScope } from "../tenants/Scope.js"
import { attemptsOf, eventOf, roundsOf } from "./DeliverySteps.js"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { outboxEvent, webhookScope } from "../testing/OutboxEvents.js"
import { hangReply, serverErrorReply, TestDeliveryTransport } from "../testing/TestDeliveryTransport.js"
import * as TestEnvelopeSealer from "../testing/TestEnvelopeSealer.js"
import * as TestSecretBox from "../testing/TestSecretBox.js"
import { SilentHost, TestWebhookTargets } from "../testing/TestWebhookTargets.js"
import { DeliveryLedger } from "./DeliveryLedger.js"
import { attemptOffsets, roundDeadline } from "./DeliverySchedule.js"
import { Dispatcher } from "./Dispatcher.js"
import { OutboxSignal } from "./OutboxSignal.js"
import { defaultDispatcherSettings, type DispatcherSettings } from "./DispatcherSettings.js"
import { Notifications } from "./Notifications.js"

const start = new Date("2026-03-01T00:00:00.000Z")
const holder = "test-dispatcher"
const interrupted = "interrupted: the worker stopped before the attempt finished"
const addresses = ["203.0.113.7", "203.0.113.8", "203.0.113.9"]
const hooks = { "receiver.test": addresses, "silent.test": SilentHost }
const hookUrl = (path: string, host = "receiver.test") => `https://${host}${path}`
const target = (address: string) => ({ host: "receiver.test", address, family: 4, port: 443 })
/** The fixtures' sealed webhook key opens (TestSecretBox) to these bytes. */
const fixtureKeyHex = "010203"

interface WorldOptions {
  /** Master key IDs whose sealed secrets cannot be opened. */
  readonly lostKeys?: ReadonlyArray<string>
}

/** The memory storage, scripted receivers behind a test transport, a host table, a reversible sealer. */
const world = (options: WorldOptions) =>
  Layer.mergeAll(
    TestDeliveryTransport.layer(),
    TestWebhookTargets.layer(hooks),
    TestEnvelopeSealer.layer,
    TestSecretBox.layer({ lost: options.lostKeys }),
    Notifications.layer
  ).pipe(Layer.provideMerge(MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage))))

/** A dispatcher of its own for one pass, as a worker process would run it. */
const dispatchOnce = (settings: Partial<DispatcherSettings> = {}, network: Network = "nile", who = holder) =>
  Effect.flatMap(Dispatcher, (d) => d.dispatchOnce(network, who)).pipe(Effect.provide(Dispatcher.layer(settings).pipe(Layer.provide(OutboxSignal.layer))))

/** A scope whose webhook is `url`, enabled, with one event due at `start`. */
const scopeWithEvent = (url: string) =>
  Effect.gen(function*() {
    const scope = yield* webhookScope("nile", { url, enabled: true })
    return { scope, event: yield* outboxEvent(scope, start) }
  })

/** Lets the other fibers run until `check` holds. */
const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 10_000; i++) {
      if (yield* check) return
      yield* Effect.yieldNow()
    }
    return yield* Effect.die(new Error("the condition never held"))
  })

/** A test in a world of its own, its clock at `start`. */
const test = (title: string, body: () => Effect.Effect<void, unknown, Layer.Layer.Success<ReturnType<typeof world>>>, options: WorldOptions = {}) =>
  it.effect(title, () => Effect.zipRight(TestClock.setTime(start.getTime()), body()).pipe(Effect.provide(world(options))))

const opened = (body: string) => TestEnvelopeSealer.openTestEnvelope(body)

/**
 * Where the database is: answering (`up`), going away as the next attempts are marked sending
 * (`atMark`: the mark is not stored), as the next claim commits (`claimReplyLost`: the claim is
 * stored, its reply never arrives), or gone (`down`).
 */
type DatabaseState = "up" | "atMark" | "claimReplyLost" | "down"

/** The ledger in context over a database that goes away as `state` says: a statement dies as a lost connection does. */
const flakyLedger = Effect.gen(function*() {
  const ledger = yield* DeliveryLedger
  const state = yield* Ref.make<DatabaseState>("up")
  const lost = Effect.dieMessage("Connection terminated unexpectedly")
  const goDown = Effect.zipRight(Ref.set(state, "down"), lost)
  const statement = <A>(run: Effect.Effect<A>) => Effect.flatMap(Ref.get(state), (db) => (db === "down" ? lost : run))
  const flaky = DeliveryLedger.of({
    claimDue: (request) =>
      statement(Effect.flatMap(ledger.claimDue(request), (events) => Effect.flatMap(Ref.get(state), (db) => (db === "claimReplyLost" ? goDown : Effect.succeed(events))))),
    markSending: (attempts, at) => Effect.flatMap(Ref.get(state), (db) => (db === "atMark" ? goDown : statement(ledger.markSending(attempts, at)))),
    withdrawAttempts: (attempts) => statement(ledger.withdrawAttempts(attempts)),
    failNewRound: (claim, round) => statement(ledger.failNewRound(claim, round)),
    endRound: (claim, at, reason) => statement(ledger.endRound(claim, at, reason)),
    finishAttempts: (finishes) => statement(ledger.finishAttempts(finishes)),
    release: (claims) => statement(ledger.release(claims)),
    handBack: (network, holders) => statement(ledger.handBack(network, holders)),
    backlog: (network, now) => statement(ledger.backlog(network, now))
  })
  return { ledger: flaky, state }
})

/**
 * One dispatcher (as an engine keeps one, 60 s claim lease) whose pass meets an outage as
 * `outage` says and whose next passes, from a second later when the database answers again, go
 * on: the event as they leave it, its attempts, and the requests the receiver got.
 */
const afterOutage = (outage: DatabaseState) =>
  Effect.scoped(Effect.gen(function*() {
    const transport = yield* TestDeliveryTransport
    const { scope, event } = yield* scopeWithEvent(hookUrl("/outage"))
    const { ledger, state } = yield* flakyLedger
    const built = yield* Layer.build(Dispatcher.layer({ claimLease: Duration.seconds(60) }).pipe(
      Layer.provide(OutboxSignal.layer),
      Layer.provide(Layer.succeed(DeliveryLedger, ledger))
    ))
    const dispatcher = Context.get(built, Dispatcher)
    yield* Ref.set(state, outage)
    yield* Effect.exit(dispatcher.dispatchOnce("nile", holder))
    expect(transport.received()).toEqual([])
    yield* TestClock.adjust("1 second")
    yield* Ref.set(state, "up")
    // The first pass takes the event handed back and withdraws its attempt that was never sent; the next one sends it.
    for (let pass = 0; pass < 3 && (yield* eventOf(scope, event.id)).status !== "delivered"; pass++) yield* dispatcher.dispatchOnce("nile", holder)
    return { event: yield* eventOf(scope, event.id), attempts: yield* attemptsOf(scope, event.id), received: transport.received().length }
  }))

describe("Dispatcher on the memory storage", () => {
  test("claims, seals and POSTs to the checked addresses; a 200 with code 0 is delivered", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      const { scope, event } = yield* scopeWithEvent(hookUrl("/ok"))
      expect(yield* dispatchOnce()).toBe(1)
      expect(transport.received()).toHaveLength(1)
      const [request] = transport.received()
      // The first two checked addresses, the first of which took it.
      expect(request!.targets).toEqual([target(addresses[0]!), target(addresses[1]!)])
      expect(request!.target).toEqual(target(addresses[0]!))
      expect(request!.url).toBe(hookUrl("/ok"))
      expect(request!.headers).toEqual({
        "Content-Type": "application/json",
        "X-App-Id": scope.appId,
        "X-Event-Id": event.id,
        "X-Event-Type": "sweep.succeeded"
      })
      expect(opened(request!.body)).toEqual({ key: fixtureKeyHex, payload: event.payload, timestamp: start.toISOString(), nonce: 1 })
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "delivered", attempts: 1, nextAttempt: null, lastError: "", deliveredAt: start })
      expect(yield* attemptsOf(scope, event.id)).toEqual([{
        round: 1, attempt: 1, url: hookUrl("/ok"), startedAt: start, endedAt: start, durationMs: 0, httpStatus: 200,
        responseExcerpt: '{"code":0,"message":"ok"}', error: "", outcome: "delivered"
      }])
      expect(yield* roundsOf(scope, event.id)).toMatchObject([{ round: 1, url: hookUrl("/ok"), endedAt: start, outcome: "delivered", reason: "" }])
      // Nothing is due any more.
      expect(yield* dispatchOnce()).toBe(0)
      expect(transport.received()).toHaveLength(1)
    }))

  test("records how long the receiver took, by the clock", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      transport.answer({ _tag: "Slow", after: "1500 millis", reply: { _tag: "Respond", status: 200, body: '{"code":0}' } })
      const { scope, event } = yield* scopeWithEvent(hookUrl("/slow"))
      const pass = yield* Effect.fork(dispatchOnce())
      yield* eventually(Effect.sync(() => transport.received().length === 1))
      yield* TestClock.adjust("1500 millis")
      expect(yield* Fiber.join(pass)).toBe(1)
      const done = new Date(start.getTime() + 1500)
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "delivered", deliveredAt: done })
      expect(yield* attemptsOf(scope, event.id)).toMatchObject([{ startedAt: start, endedAt: done, durationMs: 1500 }])
    }))

  test("judges every other answer a failure, records why, and schedules the next attempt 10 s on, with jitter", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      const huge = `{"code":0,"pad":"${"x".repeat(70_000)}"}`
      const cases = [
        { path: "/error", reply: serverErrorReply, status: 500, excerpt: '{"code":1,"message":"boom"}', error: "HTTP 500: expected 200" },
        { path: "/wrong", reply: { _tag: "Respond", status: 200, body: "<html>proxy says hello</html>" }, status: 200, excerpt: "<html>proxy says hello</html>", error: "HTTP 200 but the response body is not JSON" },
        {
          path: "/redirect",
          reply: { _tag: "Respond", status: 302, body: "", location: "https://elsewhere.test/x" },
          status: 302,
          excerpt: "",
          error: "HTTP 302 redirect to https://elsewhere.test/x; redirects are not followed"
        },
        { path: "/code", reply: { _tag: "Respond", status: 200, body: '{"code":"0"}' }, status: 200, excerpt: '{"code":"0"}', error: 'HTTP 200 but the response\'s top-level "code" is "0"; expected 0' },
        { path: "/huge", reply: { _tag: "Respond", status: 200, body: huge }, status: 200, excerpt: huge.slice(0, 1024), error: "HTTP 200 but the response body is too large" },
        { path: "/timeout", reply: { _tag: "Fail", kind: "timeout", message: "no complete response within 10000 ms" }, status: null, excerpt: "", error: "no complete response within 10000 ms" }
      ] as const
      const seeded = yield* Effect.forEach(cases, (c) => {
        transport.answer(c.reply, hookUrl(c.path))
        return scopeWithEvent(hookUrl(c.path))
      })
      expect(yield* dispatchOnce()).toBe(cases.length)
      for (const [i, c] of cases.entries()) {
        const { scope, event } = seeded[i]!
        const stored = yield* eventOf(scope, event.id)
        expect(stored, c.path).toMatchObject({ status: "pending", attempts: 1, lastError: c.error, deliveredAt: null })
        const delay = stored.nextAttempt!.getTime() - start.getTime()
        expect(delay).toBeGreaterThanOrEqual(9_000)
        expect(delay).toBeLessThanOrEqual(11_000)
        expect(yield* attemptsOf(scope, event.id), c.path).toMatchObject([{ attempt: 1, httpStatus: c.status, responseExcerpt: c.excerpt, error: c.error, outcome: "failed" }])
        expect(yield* roundsOf(scope, event.id)).toMatchObject([{ round: 1, endedAt: null, outcome: null }])
      }
    }))

  test("an attempt goes to the second checked address only when the first cannot be reached, never to a third", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      transport.unreachable(addresses[0]!)
      const first = yield* scopeWithEvent(hookUrl("/second"))
      expect(yield* dispatchOnce()).toBe(1)
      expect(transport.receivedAt(hookUrl("/second")).map((r) => r.target.address)).toEqual([addresses[1]])
      expect((yield* eventOf(first.scope, first.event.id)).status).toBe("delivered")

      transport.unreachable(addresses[1]!)
      const second = yield* scopeWithEvent(hookUrl("/none"))
      expect(yield* dispatchOnce()).toBe(1)
      const error = `could not connect to receiver.test (${addresses[1]}:443): ECONNREFUSED`
      expect(transport.receivedAt(hookUrl("/none"))).toEqual([])
      expect(yield* eventOf(second.scope, second.event.id)).toMatchObject({ status: "pending", attempts: 1, lastError: error })
      expect(yield* attemptsOf(second.scope, second.event.id)).toMatchObject([{ httpStatus: null, error, outcome: "failed" }])
    }))

  test("runs the full schedule: 20 attempts at their offsets from the round's start, then the round fails", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      transport.answer(serverErrorReply)
      const { scope, event } = yield* scopeWithEvent(hookUrl("/schedule"))
      for (let k = 1; k <= 20; k++) {
        expect(yield* dispatchOnce(), `attempt ${k}`).toBe(1)
        const stored = yield* eventOf(scope, event.id)
        expect(stored.attempts).toBe(k)
        if (k === 20) break
        // The random draw is fixed at the middle of the jitter: exactly the contract's offset.
        expect(stored.nextAttempt).toEqual(new Date(start.getTime() + Duration.toMillis(attemptOffsets[k]!)))
        // Just before it is due nothing happens.
        yield* TestClock.setTime(stored.nextAttempt!.getTime() - 1)
        expect(yield* dispatchOnce()).toBe(0)
        yield* TestClock.setTime(stored.nextAttempt!.getTime())
      }
      const reason = "20 attempts failed; last error: HTTP 500: expected 200"
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "failed", attempts: 20, nextAttempt: null, lastError: reason })
      const requests = transport.receivedAt(hookUrl("/schedule"))
      expect(requests.map((r) => r.at)).toEqual(attemptOffsets.map((offset) => new Date(start.getTime() + Duration.toMillis(offset))))
      // Each attempt sealed afresh.
      expect(new Set(requests.map((r) => opened(r.body).nonce)).size).toBe(20)
      expect(yield* roundsOf(scope, event.id)).toMatchObject([{ round: 1, outcome: "failed", reason }])
      yield* TestClock.adjust("30 hours")
      expect(yield* dispatchOnce()).toBe(0)
    }).pipe(Effect.withRandom(Random.fixed([0.5]))))

  test("ends the round at its deadline without another attempt", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      transport.answer(serverErrorReply)
      const { scope, event } = yield* scopeWithEvent(hookUrl("/deadline"))
      expect(yield* dispatchOnce()).toBe(1)
      // The workers were down for a day.
      const deadline = roundDeadline(start)
      yield* TestClock.setTime(deadline.getTime())
      expect(yield* dispatchOnce()).toBe(1)
      const reason = "round deadline reached; last error: HTTP 500: expected 200"
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "failed", attempts: 1, nextAttempt: null, lastError: reason })
      expect(yield* roundsOf(scope, event.id)).toMatchObject([{ round: 1, endedAt: deadline, outcome: "failed", reason }])
      expect(transport.received()).toHaveLength(1)
    }))

  test("ends a new round at once when the webhook is disabled or not configured, sending nothing", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      const disabled = yield* webhookScope("nile", { url: hookUrl("/disabled"), enabled: false })
      const unconfigured = yield* webhookScope("nile", null)
      const a = yield* outboxEvent(disabled, start)
      const b = yield* outboxEvent(unconfigured, start)
      expect(yield* dispatchOnce()).toBe(2)
      expect(yield* eventOf(disabled, a.id)).toMatchObject({ status: "failed", attempts: 0, nextAttempt: null, lastError: "webhook delivery is disabled" })
      expect(yield* eventOf(unconfigured, b.id)).toMatchObject({ status: "failed", attempts: 0, nextAttempt: null, lastError: "no webhook URL is configured" })
      expect(yield* roundsOf(disabled, a.id)).toEqual([
        { round: 1, url: "", startedAt: start, deadlineAt: roundDeadline(start), endedAt: start, outcome: "failed", reason: "webhook delivery is disabled" }
      ])
      expect(yield* attemptsOf(disabled, a.id)).toEqual([])
      expect(transport.received()).toEqual([])
    }))

  test("keeps a round's URL to its end; a re-pushed round reads the configuration of its own start", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      transport.answer(serverErrorReply, hookUrl("/old"))
      const { scope, event } = yield* scopeWithEvent(hookUrl("/old"))
      expect(yield* dispatchOnce()).toBe(1)
      yield* Effect.flatMap(SettingsRepository, (settings) => settings.setWebhook(scope, { url: hookUrl("/new"), enabled: true }))
      yield* TestClock.adjust("11 seconds")
      expect(yield* dispatchOnce()).toBe(1)
      expect(transport.receivedAt(hookUrl("/old"))).toHaveLength(2)
      expect(transport.receivedAt(hookUrl("/new"))).toHaveLength(0)
      // The round fails at its deadline; the tenant then re-pushes.
      yield* TestClock.adjust("24 hours")
      expect(yield* dispatchOnce()).toBe(1)
      expect((yield* eventOf(scope, event.id)).status).toBe("failed")
      const notifications = yield* Notifications
      expect((yield* notifications.redeliver(scope, event.id)).currentRound).toBe(2)
      expect(yield* dispatchOnce()).toBe(1)
      expect(transport.receivedAt(hookUrl("/new")).map((r) => opened(r.body).payload)).toEqual([event.payload])
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "delivered", currentRound: 2, attempts: 1 })
      expect(yield* roundsOf(scope, event.id)).toMatchObject([
        { round: 2, url: hookUrl("/new"), outcome: "delivered" },
        { round: 1, url: hookUrl("/old"), outcome: "failed" }
      ])
      expect((yield* attemptsOf(scope, event.id)).map((a) => [a.round, a.attempt, a.outcome])).toEqual([[2, 1, "delivered"], [1, 2, "failed"], [1, 1, "failed"]])
    }))

  test("checks the URL once for the attempts one claim starts together, and again at the next claim: a name gone is refused, nothing sent", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      const targets = yield* TestWebhookTargets
      // Two tenants with the same URL: two groups of attempts, one check.
      const scope = yield* webhookScope("nile", { url: hookUrl("/batch"), enabled: true })
      const other = yield* webhookScope("nile", { url: hookUrl("/batch"), enabled: true })
      yield* Effect.forEach([scope, scope, other], (s) => outboxEvent(s, start))
      expect(yield* dispatchOnce()).toBe(3)
      expect(targets.lookups()).toBe(1)
      expect(transport.receivedAt(hookUrl("/batch")).map((r) => r.headers["X-App-Id"]).sort()).toEqual([scope.appId, scope.appId, other.appId].sort())
      // The name no longer resolves when the next event is delivered.
      targets.set({})
      const event = yield* outboxEvent(scope, start)
      expect(yield* dispatchOnce()).toBe(1)
      expect(targets.lookups()).toBe(2)
      const reason = "target refused: webhook URL host receiver.test could not be resolved (ENOTFOUND)"
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "pending", attempts: 1, lastError: reason })
      expect(yield* attemptsOf(scope, event.id)).toMatchObject([{ attempt: 1, httpStatus: null, error: reason, outcome: "failed" }])
      expect(transport.receivedAt(hookUrl("/batch"))).toHaveLength(3)
    }))

  test("an attempt whose scope has no app credential any more fails without sending", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      // The tenant's app is on nile; an event of its main scope finds none.
      const scope = yield* webhookScope("nile", null)
      const main = { tenantId: scope.tenantId, network: "main" } as const
      yield* Effect.flatMap(SettingsRepository, (settings) => settings.setWebhook(main, { url: hookUrl("/main"), enabled: true }))
      const event = yield* outboxEvent(main, start)
      expect(yield* dispatchOnce({}, "main")).toBe(1)
      const reason = "the app credential of this scope no longer exists"
      expect(yield* eventOf(main, event.id)).toMatchObject({ status: "pending", attempts: 1, lastError: reason })
      expect(transport.received()).toEqual([])
    }))

  test("an attempt whose webhook key cannot be opened fails without sending", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      const { scope, event } = yield* scopeWithEvent(hookUrl("/key"))
      expect(yield* dispatchOnce()).toBe(1)
      const reason = "webhook key could not be opened: master key fixture is not available"
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "pending", attempts: 1, lastError: reason })
      expect(yield* attemptsOf(scope, event.id)).toMatchObject([{ httpStatus: null, error: reason, outcome: "failed" }])
      expect(transport.received()).toEqual([])
    }), { lostKeys: ["fixture"] })

  test("a dispatcher stopped mid-attempt closes the attempt at once as interrupted: it counts", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      transport.answer(hangReply)
      const { scope, event } = yield* scopeWithEvent(hookUrl("/stop"))
      const pass = yield* Effect.fork(dispatchOnce())
      yield* eventually(Effect.sync(() => transport.received().length === 1))
      yield* Fiber.interrupt(pass)
      expect(yield* attemptsOf(scope, event.id)).toMatchObject([{ attempt: 1, endedAt: start, outcome: "failed", error: interrupted }])
      const stored = yield* eventOf(scope, event.id)
      expect(stored).toMatchObject({ status: "pending", attempts: 1, lastError: interrupted })
      expect(stored.nextAttempt!.getTime() - start.getTime()).toBeGreaterThanOrEqual(9_000)
      // Released: another dispatcher takes it at its next attempt.
      transport.answer({ _tag: "Respond", status: 200, body: '{"code":0}' })
      yield* TestClock.setTime(stored.nextAttempt!.getTime())
      expect(yield* dispatchOnce({}, "nile", "another")).toBe(1)
      expect((yield* eventOf(scope, event.id)).status).toBe("delivered")
    }))

  test("a dispatcher stopped before sending withdraws the attempt: not counted, due as before, sent next as attempt 1", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      const targets = yield* TestWebhookTargets
      const url = hookUrl("/early", "silent.test")
      // The URL check waits on a name server that does not answer: nothing is sent yet.
      const { scope, event } = yield* scopeWithEvent(url)
      const pass = yield* Effect.fork(dispatchOnce())
      yield* eventually(Effect.sync(() => targets.lookups() === 1))
      yield* Fiber.interrupt(pass)
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "pending", attempts: 0, nextAttempt: start, lastError: "" })
      expect(yield* attemptsOf(scope, event.id)).toEqual([])
      // The round that claim started stays started, with its URL.
      expect(yield* roundsOf(scope, event.id)).toMatchObject([{ round: 1, url, startedAt: start, outcome: null }])
      targets.set({ "silent.test": addresses[2]! })
      expect(yield* dispatchOnce()).toBe(1)
      expect(transport.receivedAt(url)).toHaveLength(1)
      expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "delivered", attempts: 1, currentRound: 1, lastError: "" })
      expect(yield* attemptsOf(scope, event.id)).toMatchObject([{ round: 1, attempt: 1, error: "", outcome: "delivered" }])
    }))

  test("a dispatcher that died after its claim: the next one withdraws what was never sent, and counts what was", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      const ledger = yield* DeliveryLedger
      const unsent = yield* scopeWithEvent(hookUrl("/unsent"))
      const sent = yield* scopeWithEvent(hookUrl("/sent"))
      // Dies where the crash tests kill the worker: attempts started, none marked sending.
      const death = (point: string) => point === "delivery:claimed" ? Effect.die("power cut") : Effect.void
      expect(Exit.isFailure(yield* Effect.exit(dispatchOnce({ checkpoint: death }, "nile", "dead-worker")))).toBe(true)
      expect(yield* attemptsOf(unsent.scope, unsent.event.id)).toMatchObject([{ attempt: 1, endedAt: null }])
      // The other one got as far as its POST (under the name of the dead dispatcher's first claim).
      const mark = [{ claim: { holder: "dead-worker#1", eventId: sent.event.id, round: 1 }, attempt: 1 }]
      expect(yield* ledger.markSending(mark, start)).toEqual([sent.event.id])
      // Both are taken over once the claim runs out.
      yield* TestClock.adjust(Duration.sum(defaultDispatcherSettings.claimLease, Duration.seconds(1)))
      expect(yield* dispatchOnce()).toBe(2)
      expect(yield* eventOf(unsent.scope, unsent.event.id)).toMatchObject({ status: "pending", attempts: 0, nextAttempt: start, lastError: "" })
      expect(yield* attemptsOf(unsent.scope, unsent.event.id)).toEqual([])
      expect(yield* eventOf(sent.scope, sent.event.id)).toMatchObject({ status: "pending", attempts: 1, lastError: interrupted })
      expect(yield* attemptsOf(sent.scope, sent.event.id)).toMatchObject([{ attempt: 1, outcome: "failed", error: interrupted }])
      expect(transport.received()).toEqual([])
      // The unsent one goes out as attempt 1; the other's attempt 2 is due by now too.
      expect(yield* dispatchOnce()).toBe(2)
      expect(transport.receivedAt(hookUrl("/unsent"))).toHaveLength(1)
      expect(yield* eventOf(unsent.scope, unsent.event.id)).toMatchObject({ status: "delivered", attempts: 1 })
      expect((yield* attemptsOf(sent.scope, sent.event.id)).map((a) => [a.attempt, a.outcome])).toEqual([[2, "delivered"], [1, "failed"]])
    }))

  test("the database goes away as an attempt is marked sending: once it answers, the same dispatcher hands the event back and delivers it, long before the claim lease ends", () =>
    Effect.gen(function*() {
      const { event, attempts, received } = yield* afterOutage("atMark")
      expect(event).toMatchObject({ status: "delivered", attempts: 1 })
      expect(event.deliveredAt!.getTime() - start.getTime()).toBeLessThan(6_000)
      expect(attempts).toMatchObject([{ attempt: 1, outcome: "delivered" }])
      expect(received).toBe(1)
    }))

  test("a claim whose reply was lost: once the database answers, the same dispatcher hands its event back and delivers it, long before the claim lease ends", () =>
    Effect.gen(function*() {
      const { event, attempts, received } = yield* afterOutage("claimReplyLost")
      expect(event).toMatchObject({ status: "delivered", attempts: 1 })
      expect(event.deliveredAt!.getTime() - start.getTime()).toBeLessThan(6_000)
      expect(attempts).toMatchObject([{ attempt: 1, outcome: "delivered" }])
      expect(received).toBe(1)
    }))

  test("run: delivers what is due, finds what falls due at its next poll, reports the backlog; stopped, it withdraws the attempts not yet sent", () =>
    Effect.gen(function*() {
      const transport = yield* TestDeliveryTransport
      const delivered = (scope: TenantScope, id: EventId) => Effect.map(eventOf(scope, id), (e) => e.status === "delivered")
      const now = yield* scopeWithEvent(hookUrl("/run"))
      const stuck = yield* scopeWithEvent(hookUrl("/run", "silent.test"))
      const running = yield* Effect.fork(Effect.flatMap(Dispatcher, (d) => d.run("nile", "runner")).pipe(Effect.provide(Dispatcher.layer().pipe(Layer.provide(OutboxSignal.layer)))))
      yield* eventually(delivered(now.scope, now.event.id))
      const later = yield* outboxEvent(now.scope, new Date(start.getTime() + 1_000))
      yield* TestClock.adjust("1 second")
      yield* eventually(delivered(now.scope, later.id))
      expect(transport.receivedAt(hookUrl("/run"))).toHaveLength(2)
      const [report] = (yield* Effect.flatMap(ComponentStatus, (s) => s.list("nile"))).filter((r) => r.component === "notifier")
      expect(report).toMatchObject({ component: "notifier", network: "nile", status: "ok" })
      yield* Fiber.interrupt(running)
      expect(yield* eventOf(stuck.scope, stuck.event.id)).toMatchObject({ status: "pending", attempts: 0, nextAttempt: start })
      expect(yield* attemptsOf(stuck.scope, stuck.event.id)).toEqual([])
      expect(transport.receivedAt(hookUrl("/run", "silent.test"))).toEqual([])
    }))
  test("run: an event this engine announces is delivered at once, not at the notifier's next poll", () =>
    Effect.gen(function*() {
      const signal = yield* OutboxSignal
      const scope = yield* webhookScope("nile", { url: hookUrl("/announced"), enabled: true })
      const running = yield* Effect.fork(Effect.flatMap(Dispatcher, (d) => d.run("nile", "runner")).pipe(Effect.provide(Dispatcher.layer())))
      // Its first claim finds nothing; it then waits for its poll, and the clock stands still.
      for (let i = 0; i < 200; i++) yield* Effect.yieldNow()
      const booked = yield* outboxEvent(scope, start)
      yield* signal.raise
      yield* eventually(Effect.map(eventOf(scope, booked.id), (e) => e.status === "delivered"))
      expect((yield* TestDeliveryTransport).receivedAt(hookUrl("/announced"))).toHaveLength(1)
      yield* Fiber.interrupt(running)
    }).pipe(Effect.provide(OutboxSignal.layer)))
})
