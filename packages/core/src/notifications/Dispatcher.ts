import { Cause, Clock, Context, Deferred, Duration, Effect, Either, FiberSet, Layer, Queue, Random, Ref, type Scope } from "effect"
import { ComponentStatus } from "../engine/ComponentStatus"
import type { Network } from "../Network"
import { SecretBox, type SecretBoxError } from "../SecretBox"
import { type ResolvedTarget, WebhookTargets } from "../webhook/WebhookTargets"
import type { WebhookUrlRejected } from "../webhook/WebhookUrlRejected"
import { judgeResponse, responseExcerpt } from "./Acknowledgement"
import { attemptDueAt, maxAttemptsPerRound, roundDeadline } from "./DeliverySchedule"
import {
  type AttemptFinish,
  type Claim,
  claimOf,
  DeliveryLedger,
  type DueEvent,
  type NextStep
} from "./DeliveryLedger"
import { DeliveryTransport } from "./DeliveryTransport"
import { type DispatcherSettings, defaultDispatcherSettings } from "./DispatcherSettings"
import { EnvelopeSealer } from "./EnvelopeSealer"

export const interruptedError = "interrupted: the worker stopped before the attempt finished"

/** Why a new round cannot start with this configuration, or null when it can. */
export const unusableConfiguration = (config: { readonly url: string; readonly enabled: boolean }): string | null =>
  config.url === ""
    ? "no webhook URL is configured"
    : config.enabled
    ? null
    : "webhook delivery is disabled"

/** After a failed attempt `attempt` of a round: the next one's time, or the round's end. */
export const afterFailure = (event: DueEvent, attempt: number, error: string, unit: number): NextStep => {
  const start = event.roundStartedAt ?? new Date(0)
  const next = attemptDueAt(start, attempt + 1, unit)
  if (attempt >= maxAttemptsPerRound || next === null) return { _tag: "RoundFailed", reason: `${maxAttemptsPerRound} attempts failed; last error: ${error}` }
  if (next.getTime() >= event.deadlineAt.getTime()) return { _tag: "RoundFailed", reason: `round deadline reached; last error: ${error}` }
  return { _tag: "Retry", at: next }
}

export class Dispatcher extends Context.Tag("@collector/core/Dispatcher")<
  Dispatcher,
  {
    /** Claims what is due now and delivers it, waiting for every attempt; returns how many events it handled. */
    readonly dispatchOnce: (network: Network, holder: string) => Effect.Effect<number>
    /** Delivers until interrupted, keeping up to `maxInFlight` attempts running, and reports the backlog. */
    readonly run: (network: Network, holder: string) => Effect.Effect<never>
  }
>() {
  static layer(settings: Partial<DispatcherSettings> = {}) {
    return Layer.scoped(Dispatcher, make({ ...defaultDispatcherSettings, ...settings }))
  }
}

// How long the loop waits for running attempts to free slots before it claims again.
const refillPause = Duration.millis(5)

/**
 * Writes attempt outcomes in batches (group commit): the first outcome is written at once, and
 * those finished while a write is under way go together in the next one, up to `maxBatch` per
 * statement. `record` queues an outcome and returns a signal that completes once it is durable;
 * the event's claim is released by that same write, so no dispatcher can claim the event again
 * before its outcome is stored. A write that fails keeps its outcomes, in order, and is tried
 * again after `retryAfter` (writing one twice changes nothing: the ledger skips an attempt
 * already closed). When the dispatcher's scope closes, what is still queued gets one last write.
 */
export const makeOutcomeWriter = (maxBatch: number, retryAfter: Duration.Duration) =>
  Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const queued: Array<{ readonly finish: AttemptFinish; readonly durable: Deferred.Deferred<void> }> = []
    const wake = yield* Queue.sliding<void>(1)

    /** One write of the oldest queued outcomes; false when it failed (they are queued again). */
    const writeBatch = Effect.uninterruptible(Effect.suspend(() => {
      const batch = queued.splice(0, maxBatch)
      if (batch.length === 0) return Effect.succeed(true)
      return ledger.finishAttempts(batch.map((item) => item.finish)).pipe(
        Effect.matchCauseEffect({
          onSuccess: () => Effect.as(Effect.forEach(batch, (item) => Deferred.succeed(item.durable, undefined), { discard: true }), true),
          onFailure: (cause) =>
            Effect.sync(() => queued.unshift(...batch)).pipe(
              Effect.zipRight(Effect.logError(`${batch.length} attempt outcomes not written; writing them again`, cause)),
              Effect.as(false)
            )
        })
      )
    }))

    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        while (queued.length > 0) if (!(yield* writeBatch)) return
      })
    )
    yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
      yield* Queue.take(wake)
      while (queued.length > 0) if (!(yield* writeBatch)) yield* Effect.sleep(retryAfter)
    })))

    const record = (finish: AttemptFinish) =>
      Effect.gen(function*() {
        const durable = yield* Deferred.make<void>()
        queued.push({ finish, durable })
        yield* Queue.offer(wake, undefined)
        return Deferred.await(durable)
      })
    return { record, queuedCount: Effect.sync(() => queued.length) }
  })

export const make = (settings: DispatcherSettings): Effect.Effect<
  Dispatcher["Type"],
  never,
  DeliveryLedger | DeliveryTransport | WebhookTargets | SecretBox | EnvelopeSealer | ComponentStatus | Scope.Scope
> =>
  Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const transport = yield* DeliveryTransport
    const targets = yield* WebhookTargets
    const secrets = yield* SecretBox
    const sealer = yield* EnvelopeSealer
    const status = yield* ComponentStatus
    const outcomes = yield* makeOutcomeWriter(
      settings.outcomeBatch ?? defaultDispatcherSettings.outcomeBatch!,
      settings.outcomeRetry ?? defaultDispatcherSettings.outcomeRetry!
    )

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * Resolves, seals and sends; the verdict plus what was seen of the response. `openKey` opens
     * the app's webhook key and `resolve` checks the round's URL; each is shared by the claim's
     * events that need the same one, and done once for them when the claim's attempts start.
     */
    const send = (
      event: DueEvent,
      url: string,
      openKey: Effect.Effect<Uint8Array, SecretBoxError>,
      resolve: Effect.Effect<ReadonlyArray<ResolvedTarget>, WebhookUrlRejected>
    ) =>
      Effect.gen(function*() {
        if (event.app === null) return { httpStatus: null, excerpt: "", delivered: false, error: "the app credential of this scope no longer exists" }
        const resolved = yield* Effect.either(resolve)
        if (Either.isLeft(resolved)) return { httpStatus: null, excerpt: "", delivered: false, error: `target refused: ${resolved.left.reason}` }
        const key = yield* Effect.either(openKey)
        if (Either.isLeft(key)) return { httpStatus: null, excerpt: "", delivered: false, error: `webhook key could not be opened: ${key.left.reason}` }
        const timestamp = (yield* now).toISOString()
        const body = yield* sealer.seal(key.right, event.payload, timestamp)
        const headers = {
          "Content-Type": "application/json",
          "X-App-Id": event.app.appId,
          "X-Event-Id": event.eventId,
          "X-Event-Type": event.eventType
        }
        // Every answer was checked; try a second one only when the first cannot be reached (a
        // response of any kind is the receiver's answer). At most two, so an attempt stays well
        // inside the claim lease (5 s lookup + 2 × 5 s connect).
        let last = ""
        for (const target of resolved.right.slice(0, 2)) {
          const response = yield* Effect.either(transport.post({ url, target, headers, body }))
          if (Either.isRight(response)) {
            const verdict = judgeResponse(response.right)
            return { httpStatus: response.right.status, excerpt: responseExcerpt(response.right.body), ...verdict }
          }
          last = response.left.message
          if (response.left.kind !== "connect") break
        }
        return { httpStatus: null, excerpt: "", delivered: false, error: last }
      })

    /** An attempt that will never finish, closed as failed (`interrupted`) with the next one scheduled. */
    const interrupted = (event: DueEvent, claim: Claim, number: number, startedAt: Date) =>
      Effect.gen(function*() {
        const at = yield* now
        return {
          claim,
          attempt: number,
          record: {
            endedAt: at,
            durationMs: Math.max(0, at.getTime() - startedAt.getTime()),
            httpStatus: null,
            responseExcerpt: "",
            error: interruptedError,
            delivered: false
          },
          next: afterFailure(event, number, interruptedError, yield* Random.next)
        } satisfies AttemptFinish
      })

    /**
     * Sends one attempt the claim recorded as started and queues its outcome (then runs
     * `queued`), then waits until the outcome is durable. Only the send and that wait can be
     * interrupted: a send interrupted (the worker stops) closes its attempt at once, written
     * directly; an outcome once queued is written even if the wait is interrupted.
     */
    const perform = (
      event: DueEvent,
      start: { readonly attempt: number; readonly url: string; readonly startedAt: Date },
      claim: Claim,
      openKey: Effect.Effect<Uint8Array, SecretBoxError>,
      resolve: Effect.Effect<ReadonlyArray<ResolvedTarget>, WebhookUrlRejected>,
      queued: Effect.Effect<void>
    ) =>
      Effect.uninterruptible(Effect.gen(function*() {
        const outcome = yield* Effect.interruptible(send(event, start.url, openKey, resolve)).pipe(
          Effect.onInterrupt(() =>
            Effect.flatMap(interrupted(event, claim, start.attempt, start.startedAt), (finish) => ledger.finishAttempts([finish])).pipe(
              Effect.catchAllCause((cause) =>
                Effect.logError("interrupted attempt not closed; the claim lease will close it", cause).pipe(
                  Effect.annotateLogs({ event_id: event.eventId, round: event.round, attempt: start.attempt })
                )
              )
            )
          )
        )
        const endedAt = yield* now
        const next: NextStep = outcome.delivered
          ? { _tag: "Delivered" }
          : afterFailure(event, start.attempt, outcome.error, yield* Random.next)
        const durable = yield* outcomes.record({
          claim,
          attempt: start.attempt,
          record: {
            endedAt,
            durationMs: endedAt.getTime() - start.startedAt.getTime(),
            httpStatus: outcome.httpStatus,
            responseExcerpt: outcome.excerpt,
            error: outcome.error,
            delivered: outcome.delivered
          },
          next
        })
        yield* queued
        yield* Effect.interruptible(durable)
      })).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError("delivery failed unexpectedly", cause).pipe(
              Effect.annotateLogs({ event_id: event.eventId, round: event.round, attempt: start.attempt }),
              Effect.zipRight(ledger.release([claim])),
              Effect.catchAllCause(() => Effect.void)
            )
        )
      )

    /** A claimed event whose attempt did not start: close a dead worker's attempt, or end the round. */
    const settle = (event: DueEvent, claim: Claim, at: Date): Effect.Effect<void> => {
      if (event.openAttempt !== null) {
        // Its worker died or stalled past the claim: the attempt counts as failed.
        const open = event.openAttempt
        return Effect.flatMap(interrupted(event, claim, open.attempt, open.startedAt), (finish) => Effect.flatten(outcomes.record(finish)))
      }
      if (event.roundUrl === null) {
        // A new round reads the configuration as it is now (read by the claim) and keeps that URL to its end.
        const unusable = unusableConfiguration(event.webhook ?? { url: "", enabled: false })
        if (unusable !== null) return ledger.failNewRound(claim, { at, deadlineAt: roundDeadline(at), reason: unusable })
      } else if (event.attempts >= maxAttemptsPerRound || at.getTime() >= event.deadlineAt.getTime()) {
        const reason = event.lastError === "" ? "round deadline reached" : `round deadline reached; last error: ${event.lastError}`
        return ledger.endRound(claim, at, reason)
      }
      // Not started although it could go on (an attempt row already there): leave it to the next claim.
      return Effect.logWarning("claimed event neither started nor settled; released").pipe(
        Effect.zipRight(ledger.release([claim])),
        Effect.annotateLogs({ event_id: event.eventId, round: event.round })
      )
    }

    /**
     * Claims due events, which records the start of each one's next attempt that can go on, and
     * hands every started attempt to `launch`, which must fork it; the claim and the launches
     * cannot be interrupted in between, so every attempt recorded as started is either sent or
     * closed as interrupted. Returns the events claimed and the work that settles the others
     * (each settles its own event and never fails).
     */
    const claimAndLaunch = (
      network: Network,
      holder: string,
      limit: number,
      launch: (perform: (queued: Effect.Effect<void>) => Effect.Effect<void>) => Effect.Effect<unknown>
    ) =>
      Effect.uninterruptible(Effect.gen(function*() {
        const at = yield* now
        const events = yield* ledger.claimDue({
          network,
          now: at,
          holder,
          leaseUntil: new Date(at.getTime() + Duration.toMillis(settings.claimLease)),
          limit,
          perTenant: settings.perTenant,
          maxAttempts: maxAttemptsPerRound,
          roundDeadline: roundDeadline(at)
        })
        const settling: Array<Effect.Effect<void>> = []
        // One app credential per scope: its key is opened once for the claim's events of that scope.
        const keys = new Map<string, Effect.Effect<Uint8Array, SecretBoxError>>()
        // One check per URL: the claim's attempts start together, so one resolution of a name is
        // as fresh for each of them as its own would be, and every connection still goes to an
        // address that check approved (the name is never resolved again for the connection).
        const resolutions = new Map<string, Effect.Effect<ReadonlyArray<ResolvedTarget>, WebhookUrlRejected>>()
        for (const event of events) {
          const claim = claimOf(holder, event)
          const started = event.started
          if (started !== null) {
            const scope = `${event.tenantId}/${event.network}`
            let openKey = keys.get(scope)
            if (openKey === undefined && event.app !== null) {
              openKey = yield* Effect.cached(secrets.open(event.app.webhookKey))
              keys.set(scope, openKey)
            }
            const key = openKey ?? Effect.dieMessage("no app credential")
            const resolve = resolutions.get(started.url) ?? (yield* Effect.cached(targets.resolvePublic(started.url)))
            resolutions.set(started.url, resolve)
            yield* launch((queued) => perform(event, started, claim, key, resolve, queued))
          } else {
            settling.push(settle(event, claim, at).pipe(
              Effect.catchAllCause((cause) =>
                Cause.isInterruptedOnly(cause)
                  ? Effect.failCause(cause)
                  : Effect.logError("delivery failed unexpectedly", cause).pipe(
                    Effect.zipRight(ledger.release([claim])),
                    Effect.catchAllCause(() => Effect.void)
                  )
              ),
              Effect.annotateLogs({ event_id: event.eventId, round: event.round })
            ))
          }
        }
        return { events, settling }
      }))

    const dispatchOnce = (network: Network, holder: string) =>
      Effect.scoped(Effect.gen(function*() {
        const fibers = yield* FiberSet.make<void>()
        const { events, settling } = yield* claimAndLaunch(network, holder, settings.maxInFlight, (work) => FiberSet.run(fibers, work(Effect.void)))
        yield* Effect.forEach(settling, (work) => work, { concurrency: "unbounded", discard: true })
        yield* FiberSet.awaitEmpty(fibers)
        return events.length
      }))

    const reportBacklog = (network: Network) =>
      Effect.gen(function*() {
        const at = yield* now
        const backlog = yield* ledger.backlog(network, at)
        const ageSeconds = backlog.oldestDueAt === null ? 0 : Math.max(0, Math.round((at.getTime() - backlog.oldestDueAt.getTime()) / 1000))
        // A due event waiting over a minute means deliveries are not keeping up.
        const state = ageSeconds > 60 ? "degraded" : "ok"
        const detail = backlog.due === 0 ? "no events due" : `${backlog.due} events due, oldest due ${ageSeconds} s ago`
        yield* status.report({ component: "notifier", network, status: state, detail, updatedAt: at })
      }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("notifier status not reported", cause)))

    const run = (network: Network, holder: string): Effect.Effect<never> =>
      Effect.scoped(Effect.gen(function*() {
        const inFlight = yield* Ref.make(0)
        const fibers = yield* FiberSet.make<void>()
        const free = (n: number) => Ref.update(inFlight, (busy) => busy - n)
        yield* Effect.forkScoped(Effect.forever(Effect.zipRight(reportBacklog(network), Effect.sleep(settings.statusInterval))))
        return yield* Effect.forever(Effect.gen(function*() {
          const busy = yield* Ref.get(inFlight)
          const room = settings.maxInFlight - busy
          // Claims only what fits, so attempts never queue behind a slow one inside this process;
          // while attempts run, only once a quarter of the slots is free, so that each claim
          // starts a batch worth one statement; and not while as many outcomes as slots wait to
          // be written (the database is behind).
          const unwritten = yield* outcomes.queuedCount
          if ((busy > 0 && room < Math.max(1, Math.ceil(settings.maxInFlight / 4))) || unwritten >= settings.maxInFlight) {
            yield* Effect.sleep(refillPause)
            return
          }
          // Each started attempt holds a slot until its outcome is queued for writing; the events
          // settled otherwise hold theirs until settled.
          const { events, settling } = yield* claimAndLaunch(network, holder, room, (work) => {
            // The slot is given back once, when the outcome is queued or the work ends otherwise.
            let held = true
            const release = Effect.suspend(() => {
              if (!held) return Effect.void
              held = false
              return free(1)
            })
            return Effect.zipRight(Ref.update(inFlight, (n) => n + 1), FiberSet.run(fibers, Effect.ensuring(work(release), release)))
          })
          if (settling.length > 0) {
            yield* Ref.update(inFlight, (n) => n + settling.length)
            yield* FiberSet.run(fibers, Effect.forEach(settling, (work) => Effect.ensuring(work, free(1)), { concurrency: "unbounded", discard: true }))
          }
          if (events.length < room) yield* Effect.sleep(settings.pollInterval)
        }).pipe(
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause)
              ? Effect.failCause(cause)
              : Effect.logError("claiming due events failed", cause).pipe(Effect.zipRight(Effect.sleep(settings.pollInterval)))
          )
        ))
      })).pipe(Effect.annotateLogs({ component: "notifier", network }))

    return Dispatcher.of({ dispatchOnce, run })
  })
