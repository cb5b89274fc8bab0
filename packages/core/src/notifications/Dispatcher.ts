import { Cause, Clock, Context, Duration, Effect, Either, FiberSet, Layer, Random, Ref } from "effect"
import { ComponentStatus } from "../engine/ComponentStatus"
import type { Network } from "../Network"
import { SecretBox } from "../SecretBox"
import { SettingsRepository } from "../SettingsRepository"
import { WebhookTargets } from "../webhook/WebhookTargets"
import { judgeResponse, responseExcerpt } from "./Acknowledgement"
import { attemptDueAt, maxAttemptsPerRound, roundDeadline } from "./DeliverySchedule"
import { type Claim, claimOf, DeliveryLedger, type DueEvent, type NextStep } from "./DeliveryLedger"
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
    return Layer.effect(Dispatcher, make({ ...defaultDispatcherSettings, ...settings }))
  }
}

// How long the loop waits for running attempts to free slots before it claims again.
const refillPause = Duration.millis(5)

export const make = (settings: DispatcherSettings) =>
  Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const transport = yield* DeliveryTransport
    const targets = yield* WebhookTargets
    const settingsRepo = yield* SettingsRepository
    const secrets = yield* SecretBox
    const sealer = yield* EnvelopeSealer
    const status = yield* ComponentStatus

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /** Resolves, seals and sends; the verdict plus what was seen of the response. */
    const send = (event: DueEvent, url: string) =>
      Effect.gen(function*() {
        if (event.app === null) return { httpStatus: null, excerpt: "", delivered: false, error: "the app credential of this scope no longer exists" }
        const resolved = yield* Effect.either(targets.resolvePublic(url))
        if (Either.isLeft(resolved)) return { httpStatus: null, excerpt: "", delivered: false, error: `target refused: ${resolved.left.reason}` }
        const key = yield* Effect.either(secrets.open(event.app.webhookKey))
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

    /** Closes an attempt that will never finish as failed, `interrupted`, and schedules the next one. */
    const closeInterrupted = (event: DueEvent, claim: Claim, number: number, startedAt: Date) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* ledger.finishAttempt(claim, number, {
          endedAt: at,
          durationMs: Math.max(0, at.getTime() - startedAt.getTime()),
          httpStatus: null,
          responseExcerpt: "",
          error: interruptedError,
          delivered: false
        }, afterFailure(event, number, interruptedError, yield* Random.next))
      })

    const attempt = (event: DueEvent, claim: Claim, url: string) =>
      Effect.gen(function*() {
        const number = event.attempts + 1
        const startedAt = yield* now
        if (!(yield* ledger.startAttempt(claim, { attempt: number, url, startedAt }))) return
        // A worker shutting down closes its attempts at once rather than leaving them to the lease.
        const outcome = yield* send(event, url).pipe(
          Effect.onInterrupt(() => closeInterrupted(event, claim, number, startedAt).pipe(Effect.catchAllCause(() => Effect.void)))
        )
        const endedAt = yield* now
        const next: NextStep = outcome.delivered
          ? { _tag: "Delivered" }
          : afterFailure(event, number, outcome.error, yield* Random.next)
        yield* ledger.finishAttempt(claim, number, {
          endedAt,
          durationMs: endedAt.getTime() - startedAt.getTime(),
          httpStatus: outcome.httpStatus,
          responseExcerpt: outcome.excerpt,
          error: outcome.error,
          delivered: outcome.delivered
        }, next)
      })

    /** One claimed event: close a dead worker's attempt, start the round, or make the next attempt. */
    const deliver = (event: DueEvent, holder: string) => {
      const claim = claimOf(holder, event)
      return Effect.gen(function*() {
        const at = yield* now
        if (event.openAttempt !== null) {
          // Its worker died or stalled past the claim: the attempt counts as failed.
          return yield* closeInterrupted(event, claim, event.openAttempt.attempt, event.openAttempt.startedAt)
        }
        if (event.roundUrl === null) {
          // A new round reads the configuration as it is now and keeps that URL to its end.
          const config = (yield* settingsRepo.get({ tenantId: event.tenantId, network: event.network })).webhook
          const unusable = unusableConfiguration(config)
          if (unusable !== null) return yield* ledger.failNewRound(claim, { at, deadlineAt: roundDeadline(at), reason: unusable })
          const started = { url: config.url, startedAt: at, deadlineAt: roundDeadline(at) }
          if (!(yield* ledger.startRound(claim, started))) return
          return yield* attempt({ ...event, roundUrl: config.url, roundStartedAt: at, deadlineAt: started.deadlineAt }, claim, config.url)
        }
        if (event.attempts >= maxAttemptsPerRound || at.getTime() >= event.deadlineAt.getTime()) {
          const reason = event.lastError === "" ? "round deadline reached" : `round deadline reached; last error: ${event.lastError}`
          return yield* ledger.endRound(claim, at, reason)
        }
        return yield* attempt(event, claim, event.roundUrl)
      }).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError("delivery failed unexpectedly", cause).pipe(
              Effect.zipRight(ledger.release(claim)),
              Effect.catchAllCause(() => Effect.void)
            )
        ),
        Effect.annotateLogs({ event_id: event.eventId, round: event.round })
      )
    }

    const claim = (network: Network, holder: string, limit: number) =>
      Effect.flatMap(now, (at) =>
        ledger.claimDue({
          network,
          now: at,
          holder,
          leaseUntil: new Date(at.getTime() + Duration.toMillis(settings.claimLease)),
          limit,
          perTenant: settings.perTenant
        }))

    const dispatchOnce = (network: Network, holder: string) =>
      Effect.flatMap(claim(network, holder, settings.maxInFlight), (events) =>
        Effect.as(Effect.forEach(events, (event) => deliver(event, holder), { concurrency: "unbounded", discard: true }), events.length))

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
        yield* Effect.forkScoped(Effect.forever(Effect.zipRight(reportBacklog(network), Effect.sleep(settings.statusInterval))))
        return yield* Effect.forever(Effect.gen(function*() {
          const busy = yield* Ref.get(inFlight)
          const free = settings.maxInFlight - busy
          // Claims only what fits, so attempts never queue behind a slow one inside this process;
          // and, while attempts run, only once a quarter of the slots is free: a claim ranks
          // every due event, so claiming one slot at a time would spend the database on ranking.
          if (busy > 0 && free < Math.max(1, Math.ceil(settings.maxInFlight / 4))) {
            yield* Effect.sleep(refillPause)
            return
          }
          const events = yield* claim(network, holder, free)
          for (const event of events) {
            yield* Ref.update(inFlight, (n) => n + 1)
            yield* FiberSet.run(fibers, deliver(event, holder).pipe(Effect.ensuring(Ref.update(inFlight, (n) => n - 1))))
          }
          if (events.length < free) yield* Effect.sleep(settings.pollInterval)
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
