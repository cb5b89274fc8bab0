import { Deferred, Duration, Effect, Queue, type Scope } from "effect"
import { type AttemptFinish, DeliveryLedger } from "./DeliveryLedger.js"

export interface OutcomeWriter {
  /** Queues an outcome for the next write; callable from outside any fiber (a transport callback). */
  readonly submit: (finish: AttemptFinish) => void
  /** Completes once every outcome queued before it is durable. */
  readonly durable: Effect.Effect<void>
  /** Outcomes queued and not yet written. */
  readonly backlog: () => number
}

/**
 * Writes attempt outcomes in batches (group commit): the first outcome is written at once, and
 * those finished while a write is under way go together in the next one, up to `maxBatch` per
 * statement. The event's claim is released by that same write, so no dispatcher can claim the
 * event again before its outcome is stored. A write that fails keeps its outcomes, in order, and
 * is tried again after `retryAfter` (writing one twice changes nothing: the ledger skips an
 * attempt already closed). When the scope closes, what is still queued gets one last write.
 *
 * Queuing is a plain call, not an effect: outcomes arrive from transport callbacks, and a
 * deferred per outcome was a large part of an attempt's cost. Durability is awaited per batch
 * of callers instead (`durable`), by sequence number.
 */
export const makeOutcomeWriter = (
  maxBatch: number,
  retryAfter: Duration.Duration
): Effect.Effect<OutcomeWriter, never, DeliveryLedger | Scope.Scope> =>
  Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const queued: Array<AttemptFinish> = []
    // Outcomes ever queued, and ever written; written outcomes are always the oldest ones.
    let submitted = 0
    let written = 0
    const waiters: Array<{ readonly upTo: number; readonly done: Deferred.Deferred<void> }> = []
    const wake = yield* Queue.sliding<void>(1)

    // Waiters are queued in the order of their sequence numbers: the ready ones are at the front.
    const settleWaiters = Effect.suspend(() => {
      let ready = 0
      while (ready < waiters.length && waiters[ready]!.upTo <= written) ready++
      return Effect.forEach(waiters.splice(0, ready), (w) => Deferred.succeed(w.done, undefined), { discard: true })
    })

    /** One write of the oldest queued outcomes; false when it failed (they are queued again). */
    const writeBatch = Effect.uninterruptible(Effect.suspend(() => {
      const batch = queued.splice(0, maxBatch)
      if (batch.length === 0) return Effect.succeed(true)
      return ledger.finishAttempts(batch).pipe(
        Effect.matchCauseEffect({
          onSuccess: () =>
            Effect.suspend(() => {
              written += batch.length
              return Effect.as(settleWaiters, true)
            }),
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

    const submit = (finish: AttemptFinish) => {
      queued.push(finish)
      submitted++
      Queue.unsafeOffer(wake, undefined)
    }

    const durable = Effect.suspend(() => {
      if (written >= submitted) return Effect.void
      return Effect.flatMap(Deferred.make<void>(), (done) => {
        waiters.push({ upTo: submitted, done })
        return Deferred.await(done)
      })
    })

    return { submit, durable, backlog: () => queued.length }
  })
