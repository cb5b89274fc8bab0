import { Cause, Clock, Context, Duration, Effect, Either, FiberSet, Layer, Metric, Queue, Random, type Scope } from "effect"
import { makeClaimNames } from "../engine/ClaimNames.js"
import { ComponentStatus } from "../engine/ComponentStatus.js"
import { DatabaseWaits } from "../engine/DatabaseWaits.js"
import { engineComponents } from "../engine/EngineComponents.js"
import { noExtraLabels } from "../metrics/MetricFamily.js"
import { noCheckpoint } from "../engine/Checkpoint.js"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { webhookKeyContext } from "../secrets/SealContext.js"
import { SecretBox } from "../secrets/SecretBox.js"
import { type ResolvedTarget, WebhookTargets } from "../webhook/WebhookTargets.js"
import type { WebhookUrlRejected } from "../webhook/WebhookUrlRejected.js"
import { judgeResponse, responseExcerpt, storableText } from "./Acknowledgement.js"
import { attemptDueAt, maxAttemptsPerRound, roundDeadline } from "./DeliverySchedule.js"
import {
  type AttemptFinish,
  type Claim,
  claimOf,
  DeliveryLedger,
  type DueEvent,
  type NextStep
} from "./DeliveryLedger.js"
import { type AttemptOutcomeLabel, webhookAttempts, webhookBacklog } from "./DeliveryMetrics.js"
import { type DeliveryRequest, type DeliveryResult, DeliveryTransport } from "./DeliveryTransport.js"
import { type DispatcherSettings, defaultDispatcherSettings } from "./DispatcherSettings.js"
import { makeAttemptSpans } from "./AttemptSpans.js"
import { EnvelopeSealer } from "./EnvelopeSealer.js"
import { makeMarkWriter } from "./MarkWriter.js"
import { OutboxSignal } from "./OutboxSignal.js"
import { webhookHost } from "../webhook/WebhookHost.js"
import { makeOutcomeWriter } from "./OutcomeWriter.js"

export const interruptedError = "interrupted: the worker stopped before the attempt finished"

/** An attempt ended by a fault in the worker itself (a defect), not by the receiver or a stop. */
export const workerFaultError = "worker fault: the attempt failed inside the worker"

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


/** An attempt of a claimed event: its number and when it started. */
export interface ClaimedAttempt {
  readonly event: DueEvent
  readonly claim: Claim
  readonly attempt: number
  readonly startedAt: Date
}

/** An attempt the claim recorded as started, to be sent to the round's URL now. */
interface StartedAttempt extends ClaimedAttempt {
  readonly url: string
}

/** How an attempt went: the verdict plus what was seen of the response. */
export interface AttemptOutcome {
  readonly httpStatus: number | null
  readonly excerpt: string
  readonly delivered: boolean
  readonly error: string
}

const failedOutcome = (error: string): AttemptOutcome => ({ httpStatus: null, excerpt: "", delivered: false, error })

/** The metric's word for how an attempt ended. */
const outcomeLabel = (outcome: AttemptOutcome): AttemptOutcomeLabel =>
  outcome.delivered
    ? "delivered"
    : outcome.httpStatus !== null
    ? "rejected"
    : outcome.error === interruptedError
    ? "interrupted"
    : outcome.error === workerFaultError
    ? "worker_fault"
    : "failed"

/** Counts a closed attempt; called where it is closed, often in a transport callback outside any fiber. */
const countAttempt = (network: Network, outcome: AttemptOutcome) => webhookAttempts(network, outcomeLabel(outcome)).unsafeUpdate(1, noExtraLabels)

/** What a POST's result says: a response of any kind is judged; no response is its failure. */
export const outcomeOf = (result: DeliveryResult): AttemptOutcome => {
  if (Either.isLeft(result)) return failedOutcome(storableText(result.left.message))
  const verdict = judgeResponse(result.right)
  // The error may quote the receiver (a redirect's Location): stored like the excerpt.
  return { httpStatus: result.right.status, excerpt: responseExcerpt(result.right.body), delivered: verdict.delivered, error: storableText(verdict.error) }
}

/** The record of an attempt that ended at `at` (epoch ms), and where its event goes; `unit` draws the jitter. */
export const finishOf = (attempt: ClaimedAttempt, at: number, outcome: AttemptOutcome, unit: number): AttemptFinish => ({
  claim: attempt.claim,
  attempt: attempt.attempt,
  record: {
    endedAt: new Date(at),
    durationMs: Math.max(0, at - attempt.startedAt.getTime()),
    httpStatus: outcome.httpStatus,
    responseExcerpt: outcome.excerpt,
    error: outcome.error,
    delivered: outcome.delivered
  },
  next: outcome.delivered ? { _tag: "Delivered" } : afterFailure(attempt.event, attempt.attempt, outcome.error, unit)
})

/** An attempt that will never finish, closed as failed (`interrupted`) with the next one scheduled. */
const interruptedFinish = (attempt: ClaimedAttempt, at: number, unit: number): AttemptFinish =>
  finishOf(attempt, at, failedOutcome(interruptedError), unit)

/** An attempt still open when its group ended, with its jitter draw and whether it was marked sending. */
interface LeftAttempt {
  readonly attempt: ClaimedAttempt
  readonly unit: number
  readonly sent: boolean
}

const make = (settings: DispatcherSettings): Effect.Effect<
  Dispatcher["Type"],
  never,
  DeliveryLedger | DeliveryTransport | WebhookTargets | SecretBox | EnvelopeSealer | ComponentStatus | OutboxSignal | Scope.Scope
> =>
  Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const transport = yield* DeliveryTransport
    const targets = yield* WebhookTargets
    const secrets = yield* SecretBox
    const sealer = yield* EnvelopeSealer
    const status = yield* ComponentStatus
    const signal = yield* OutboxSignal
    // Read directly where outcomes arrive from transport callbacks, outside any fiber.
    const clock = yield* Effect.clock
    const outcomes = yield* makeOutcomeWriter(
      settings.outcomeBatch ?? defaultDispatcherSettings.outcomeBatch!,
      settings.outcomeRetry ?? defaultDispatcherSettings.outcomeRetry!
    )
    // Sending marks, written for all the groups waiting at once: one statement per claim, not per group.
    const marks = yield* makeMarkWriter

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    const watched = (network: Network) => DatabaseWaits.watching(engineComponents.notifier, network)
    const checkpoint = settings.checkpoint ?? noCheckpoint
    // Shared by `run` and every `dispatchOnce` of this dispatcher: each claim under a name of its own.
    const claimNames = makeClaimNames()
    /**
     * Claims of events whose work ended with their attempts neither closed nor withdrawn, since
     * the statement doing so failed: nothing of this dispatcher acts on them any more (no outcome
     * of theirs is queued), so they are given back as soon as the database answers.
     */
    const leftClaims: Array<Claim> = []
    const leave = (claims: ReadonlyArray<Claim>) => Effect.sync(() => leftClaims.push(...claims))
    /**
     * Only attempts this dispatcher never marked sending: it never sent them, so nothing of them
     * is in flight. One whose request may still be on its way is left to its lease, so that no
     * other attempt of its event starts meanwhile.
     */
    const leaveUnsent = (attempts: ReadonlyArray<LeftAttempt>) => leave(attempts.filter(({ sent }) => !sent).map(({ attempt }) => attempt.claim))

    /** Attempts that will never finish, closed at once as failed with `error`, written directly. */
    const closeNow = (attempts: ReadonlyArray<LeftAttempt>, error: string) =>
      Effect.suspend(() => {
        const at = clock.unsafeCurrentTimeMillis()
        const outcome = failedOutcome(error)
        return ledger.finishAttempts(attempts.map(({ attempt, unit }) => finishOf(attempt, at, outcome, unit))).pipe(
          Effect.tap(() => Effect.sync(() => attempts.forEach(({ attempt }) => countAttempt(attempt.event.network, outcome))))
        )
      })

    /**
     * Withdraws the attempts never marked sending (nothing was sent: they do not count) and
     * returns the others, which count (also any the withdrawal found marked after all).
     */
    const withdrawUnsent = (attempts: ReadonlyArray<LeftAttempt>) =>
      Effect.map(ledger.withdrawAttempts(attempts.filter(({ sent }) => !sent).map(({ attempt }) => attempt)), (ids) => {
        const withdrawn = new Set(ids)
        return attempts.filter(({ attempt }) => !withdrawn.has(attempt.event.eventId))
      })

    /**
     * The attempts a stopping worker leaves, written at once. Those never marked sending are
     * withdrawn: nothing was sent, so they do not count and the event is due again at once. The
     * others (and any the withdrawal found marked after all) may have reached the receiver: they
     * count, closed as interrupted.
     */
    const stopAttempts = (attempts: ReadonlyArray<LeftAttempt>) =>
      Effect.flatMap(withdrawUnsent(attempts), (counted) => closeNow(counted, interruptedError)).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logError("interrupted attempts not written; those never sent are handed back once the database answers", cause).pipe(
            Effect.zipRight(leaveUnsent(attempts))
          ))
      )

    /**
     * Attempts a fault in the worker ended, closed at once as failed: a fault that recurs (a key
     * that cannot seal) then uses up the round's attempts on its schedule, where giving the event
     * back would have it withdrawn and tried again without end.
     */
    const closeFaulted = (attempts: ReadonlyArray<LeftAttempt>, cause: unknown) =>
      Effect.logError("delivery failed unexpectedly; its attempts are closed as failed", cause).pipe(
        Effect.zipRight(closeNow(attempts, workerFaultError)),
        Effect.catchAllCause((cause) =>
          Effect.logError("faulted attempts not closed; those never sent are handed back once the database answers", cause).pipe(
            Effect.zipRight(leaveUnsent(attempts))
          ))
      )

    /**
     * Delivers the attempts one claim started for one scope and URL, in one fiber: the URL's
     * check (`resolve`, shared by the claim's groups with the same URL) and the scope's key are
     * done once for them, each envelope is sealed with its own nonce, the attempts are marked
     * sending under their claims (in one statement with the other groups' marks waiting then),
     * and those still held are POSTed at once. Each outcome is queued for writing the moment it
     * is known and its slot given back (`free`), so a slow receiver holds back only its own
     * attempts. Only the check, the key, the sealing, the wait for the mark's statement to start
     * and the POSTs can be interrupted: the worker stopping withdraws the attempts not yet marked
     * and closes the marked ones still open as interrupted, written at once; an unexpected
     * failure closes them as failed.
     */
    const deliverGroup = (
      group: ReadonlyArray<StartedAttempt>,
      resolve: Effect.Effect<ReadonlyArray<ResolvedTarget>, WebhookUrlRejected>,
      free: (slots: number) => void
    ): Effect.Effect<void> =>
      Effect.uninterruptible(Effect.gen(function*() {
        const open = group.map(() => true)
        // Marked sending: from then on the attempt counts, whether or not it finishes.
        const sent = group.map(() => false)
        const units: Array<number> = []
        for (let i = 0; i < group.length; i++) units.push(yield* Random.next)
        const spans = yield* makeAttemptSpans(group)
        const close = (index: number, at: number, outcome: AttemptOutcome) => {
          if (!open[index]) return
          // Built before the attempt counts as closed: should it throw, the attempt stays open
          // and is handled with the others still open when the group ends.
          const finish = finishOf(group[index]!, at, outcome, units[index]!)
          open[index] = false
          outcomes.submit(finish)
          countAttempt(group[index]!.event.network, outcome)
          spans.close(index, outcome)
          free(1)
        }
        const closeAll = (outcome: AttemptOutcome) =>
          Effect.sync(() => {
            const at = clock.unsafeCurrentTimeMillis()
            for (let i = 0; i < group.length; i++) close(i, at, outcome)
          })
        /** The attempts still open, now taken over by the caller. */
        const takeOpen = (): Array<LeftAttempt> =>
          group.flatMap((attempt, i) => {
            if (!open[i]) return []
            open[i] = false
            spans.abandon(i, "the attempt did not finish: the worker stopped or failed")
            return [{ attempt, unit: units[i]!, sent: sent[i]! }]
          })
        /**
         * Marks the attempts sending and returns the indexes of those still held. One whose
         * claim was lost is another dispatcher's now: it is not sent, and its slot is free.
         * Not interruptible once the mark's statement has started (before, interrupting takes
         * the attempts out of the writer's queue unmarked), so what was marked is always known
         * here. The mark goes in one statement with those of the other groups waiting for theirs.
         */
        const markSending = Effect.uninterruptible(Effect.gen(function*() {
          const held = new Set(yield* marks.mark(group))
          const sending: Array<number> = []
          for (const [i, { event }] of group.entries()) {
            if (held.has(event.eventId)) {
              sent[i] = true
              sending.push(i)
            } else if (open[i]) {
              open[i] = false
              spans.lost(i)
              free(1)
            }
          }
          if (sending.length < group.length) yield* Effect.logWarning(`${group.length - sending.length} claims lost before sending; those attempts were not sent`)
          return sending
        }))

        const send = Effect.gen(function*() {
          const { event, url } = group[0]!
          if (event.app === null) return yield* closeAll(failedOutcome("the app credential of this scope no longer exists"))
          const resolved = yield* Effect.either(resolve)
          if (Either.isLeft(resolved)) return yield* closeAll(failedOutcome(`target refused: ${resolved.left.reason}`))
          const key = yield* Effect.either(secrets.open(event.app.webhookKey, webhookKeyContext(event.tenantId, event.network)))
          if (Either.isLeft(key)) return yield* closeAll(failedOutcome(`webhook key could not be opened: ${key.left.reason}`))
          const timestamp = new Date(clock.unsafeCurrentTimeMillis()).toISOString()
          // Every address was checked; a second one is tried only when the first cannot be
          // reached, within the same response window, so an attempt stays inside the claim lease
          // (5 s lookup + the 10 s window).
          const addresses = resolved.right.slice(0, 2)
          const requests: Array<DeliveryRequest> = []
          for (const { event } of group) {
            requests.push({
              url,
              targets: addresses,
              headers: {
                "Content-Type": "application/json",
                "X-App-Id": event.app!.appId,
                "X-Event-Id": event.eventId,
                "X-Event-Type": event.eventType
              },
              body: yield* sealer.seal(key.right, event.payload, timestamp)
            })
          }
          const sending = yield* markSending
          if (sending.length === 0) return
          yield* transport.postEach(
            sending.map((i) => requests[i]!),
            (index, result) => close(sending[index]!, clock.unsafeCurrentTimeMillis(), outcomeOf(result))
          )
        })

        yield* Effect.interruptible(send).pipe(
          Effect.onExit((exit) => {
            const left = takeOpen()
            if (left.length === 0) return Effect.void
            const cleanup = exit._tag === "Failure" && Cause.isInterruptedOnly(exit.cause)
              ? stopAttempts(left)
              : closeFaulted(left, exit)
            return Effect.ensuring(cleanup, Effect.sync(() => free(left.length)))
          })
        )
      })).pipe(
        Effect.catchAllCause((cause) => Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.void),
        // The host alone: a webhook URL's path or query may carry the tenant's own token.
        Effect.annotateLogs({ webhook_host: webhookHost(group[0]!.url), events: group.length })
      )

    /**
     * An attempt whose worker died or stalled past the claim. Never sent: withdrawn, as if it had
     * not started, and the event is due again at once (the next claim starts it). Marked sending
     * (or marked after the claim read it): it counts, closed as interrupted.
     */
    const settleOpen = (attempt: ClaimedAttempt, sent: boolean, at: Date): Effect.Effect<void> =>
      Effect.gen(function*() {
        const unit = yield* Random.next
        const counted = yield* withdrawUnsent([{ attempt, unit, sent }])
        if (counted.length === 0) return
        outcomes.submit(interruptedFinish(attempt, at.getTime(), unit))
        countAttempt(attempt.event.network, failedOutcome(interruptedError))
        yield* outcomes.durable
      })

    /** A claimed event whose attempt did not start: settle a dead worker's attempt, or end the round. */
    const settle = (event: DueEvent, claim: Claim, at: Date): Effect.Effect<void> => {
      if (event.openAttempt !== null) {
        const open = event.openAttempt
        return settleOpen({ event, claim, attempt: open.attempt, startedAt: open.startedAt }, open.sent, at)
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
     * What this dispatcher left claimed when statements failed, given back once the database
     * answers (here, before its next claim), for this claim or any dispatcher's to take up: their
     * lease would otherwise keep them waiting (NOTIFIER_CLAIM_LEASE_MS) for nothing. An attempt
     * left open is settled by the claim that takes its event (withdrawn when never marked sending).
     */
    const handBack = (network: Network) =>
      Effect.gen(function*() {
        yield* claimNames.handBack(network, (names) =>
          Effect.tap(ledger.handBack(network, names), (ids) =>
            ids.length === 0 ? Effect.void : Effect.logWarning(`${ids.length} events of abandoned claims handed back`)))
        if (leftClaims.length === 0) return
        const claims = leftClaims.splice(0)
        yield* ledger.release(claims).pipe(Effect.onError(() => Effect.sync(() => leftClaims.unshift(...claims))))
        yield* Effect.logWarning(`${claims.length} events whose attempts could not be closed handed back`)
      })

    /**
     * Claims due events, which records the start of each one's next attempt that can go on, and
     * hands the started attempts, grouped by scope and URL, to `launch`, which must fork their
     * delivery; the claim and the launches cannot be interrupted in between, so every attempt
     * recorded as started is sent, withdrawn or closed. Returns the events claimed and the work
     * that settles the others (each settles its own event and never fails).
     */
    const claimAndLaunch = (
      network: Network,
      holder: string,
      limit: number,
      held: ReadonlyMap<TenantId, number>,
      launch: (tenant: TenantId, attempts: number, deliver: (free: (slots: number) => void) => Effect.Effect<void>) => Effect.Effect<unknown>
    ) =>
      Effect.uninterruptible(Effect.gen(function*() {
        yield* handBack(network)
        const at = yield* now
        const claimer = claimNames.next(holder)
        // Failed, it may still have been stored (its reply lost): what it claimed is handed back.
        const events = yield* ledger.claimDue({
          network,
          now: at,
          holder: claimer,
          leaseUntil: new Date(at.getTime() + Duration.toMillis(settings.claimLease)),
          limit,
          perTenant: settings.perTenant,
          held: new Map(held),
          maxAttempts: maxAttemptsPerRound,
          roundDeadline: roundDeadline(at)
        }).pipe(claimNames.abandonOnFailure(network, claimer))
        if (events.some((event) => event.started !== null)) yield* checkpoint("delivery:claimed")
        const settling: Array<{ readonly tenant: TenantId; readonly work: Effect.Effect<void> }> = []
        const groups = new Map<string, Array<StartedAttempt>>()
        for (const event of events) {
          const claim = claimOf(claimer, event)
          const started = event.started
          if (started !== null) {
            // One app credential per scope, so one key per group.
            const key = `${event.tenantId}/${event.network} ${started.url}`
            let group = groups.get(key)
            if (group === undefined) groups.set(key, group = [])
            group.push({ event, claim, ...started })
          } else {
            settling.push({ tenant: event.tenantId, work: settle(event, claim, at).pipe(
              Effect.catchAllCause((cause) =>
                Cause.isInterruptedOnly(cause)
                  ? Effect.failCause(cause)
                  : Effect.logError("delivery failed unexpectedly", cause).pipe(
                    Effect.zipRight(ledger.release([claim])),
                    Effect.catchAllCause(() => leave([claim]))
                  )
              ),
              Effect.annotateLogs({ event_id: event.eventId, round: event.round })
            ) })
          }
        }
        // One check per URL: the claim's attempts start together, so one resolution of a name is
        // as fresh for each of them as its own would be, and every connection still goes to an
        // address that check approved (the name is never resolved again for the connection).
        const resolutions = new Map<string, Effect.Effect<ReadonlyArray<ResolvedTarget>, WebhookUrlRejected>>()
        for (const group of groups.values()) {
          const url = group[0]!.url
          let resolve = resolutions.get(url)
          if (resolve === undefined) {
            resolve = yield* Effect.cached(targets.resolvePublic(url))
            resolutions.set(url, resolve)
          }
          const check = resolve
          yield* launch(group[0]!.event.tenantId, group.length, (free) => deliverGroup(group, check, free))
        }
        return { events, settling }
      }))

    const dispatchOnce = (network: Network, holder: string) =>
      Effect.scoped(Effect.gen(function*() {
        const fibers = yield* FiberSet.make<void>()
        const { events, settling } = yield* claimAndLaunch(network, holder, settings.maxInFlight, new Map(), (_, __, deliver) => FiberSet.run(fibers, deliver(() => {})))
        yield* Effect.forEach(settling, ({ work }) => work, { concurrency: "unbounded", discard: true })
        yield* FiberSet.awaitEmpty(fibers)
        yield* outcomes.durable
        return events.length
      }))

    const reportBacklog = (network: Network) =>
      Effect.gen(function*() {
        const at = yield* now
        const backlog = yield* ledger.backlog(network, at)
        yield* Metric.set(webhookBacklog(network), backlog.due)
        const ageSeconds = backlog.oldestDueAt === null ? 0 : Math.max(0, Math.round((at.getTime() - backlog.oldestDueAt.getTime()) / 1000))
        // A due event waiting over a minute means deliveries are not keeping up.
        const state = ageSeconds > 60 ? "degraded" : "ok"
        const detail = backlog.due === 0 ? "no events due" : `${backlog.due} events due, oldest due ${ageSeconds} s ago`
        yield* status.report({ component: "notifier", network, status: state, detail, updatedAt: at })
      }).pipe(watched(network), Effect.catchAllCause((cause) => Effect.logWarning("notifier status not reported", cause)))

    const run = (network: Network, holder: string): Effect.Effect<never> =>
      Effect.scoped(Effect.gen(function*() {
        // Slots held by attempts and settling events, in all and per tenant; given back from
        // transport callbacks.
        let busy = 0
        const held = new Map<TenantId, number>()
        const freed = yield* Queue.sliding<void>(1)
        const take = (tenant: TenantId, slots: number) => {
          busy += slots
          held.set(tenant, (held.get(tenant) ?? 0) + slots)
        }
        const quarter = Math.max(1, Math.ceil(settings.maxInFlight / 4))
        const freeFor = (tenant: TenantId) => (slots: number) => {
          busy -= slots
          const left = (held.get(tenant) ?? 0) - slots
          if (left > 0) held.set(tenant, left)
          else held.delete(tenant)
          // The loop waits only for room to claim in: woken once per claim, not once per outcome.
          if (settings.maxInFlight - busy >= quarter || busy === 0) Queue.unsafeOffer(freed, undefined)
        }
        const fibers = yield* FiberSet.make<void>()
        yield* Effect.forkScoped(Effect.forever(Effect.zipRight(reportBacklog(network), Effect.sleep(settings.statusInterval))))
        return yield* Effect.forever(Effect.gen(function*() {
          // Not while as many outcomes as slots wait to be written (the database is behind).
          if (outcomes.backlog() >= settings.maxInFlight) return yield* outcomes.durable
          const room = settings.maxInFlight - busy
          // Claims only what fits, so attempts never queue behind a slow one inside this process;
          // while attempts run, only once a quarter of the slots is free, so that each claim
          // starts a batch worth one statement. A slot given back wakes the loop.
          if (busy > 0 && room < quarter) return yield* Queue.take(freed)
          // Each started attempt holds a slot until its outcome is queued for writing; the events
          // settled otherwise hold theirs until settled.
          const { events, settling } = yield* claimAndLaunch(network, holder, room, held, (tenant, attempts, deliver) => {
            take(tenant, attempts)
            return FiberSet.run(fibers, deliver(freeFor(tenant)))
          }).pipe(watched(network))
          if (settling.length > 0) {
            for (const { tenant } of settling) take(tenant, 1)
            yield* FiberSet.run(fibers, Effect.forEach(settling, ({ tenant, work }) => Effect.ensuring(work, Effect.sync(() => freeFor(tenant)(1))), { concurrency: "unbounded", discard: true }))
          }
          // Fewer than fit (none at all included): the tenants with due events may be at their
          // share, so while attempts run, one of them ending gives its tenant room again. Events
          // this engine books are announced; others are found by the poll.
          if (events.length < room) {
            yield* busy > 0 ? Effect.race(Queue.take(freed), signal.wait(settings.pollInterval)) : signal.wait(settings.pollInterval)
          }
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
