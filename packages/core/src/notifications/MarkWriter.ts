import { Deferred, Effect, Exit, Queue, type Scope } from "effect"
import { DeliveryLedger, type HeldAttempt } from "./DeliveryLedger.js"

export interface MarkWriter {
  /**
   * Marks the attempts sending (`DeliveryLedger.markSending`) in the next statement, together
   * with whatever else is queued, and returns the event IDs of those whose claim was held: only
   * those may be sent. Interruptible only while the attempts wait for their statement to start
   * (they are then taken out of the queue, never marked); once it has started, the caller waits for
   * it and learns what was marked. Run it in an uninterruptible region that also takes in its
   * result. Fails as the statement does (every caller of that statement alike); interrupted, with
   * nothing marked, when the writer stopped before writing them.
   */
  readonly mark: (attempts: ReadonlyArray<HeldAttempt>) => Effect.Effect<ReadonlyArray<string>>
}

interface Waiter {
  readonly attempts: ReadonlyArray<HeldAttempt>
  readonly done: Deferred.Deferred<ReadonlyArray<string>>
}

/**
 * Writes sending marks in batches (group commit): the first caller's attempts are marked at once,
 * and those queued while a statement is under way go together in the next one. The groups one
 * claim starts reach their mark within a tick or two of each other (the URL check is shared and
 * sealing is synchronous), so they share one statement instead of taking one each. One statement
 * is in flight at a time; the batch is at most the attempts in flight, each of which holds a slot.
 *
 * A statement is never interrupted once issued, so each caller of it learns which of its attempts
 * were marked (a caller interrupted while still queued is taken out of the queue instead). A
 * statement that fails fails each of its callers (their marks may or may not have been stored, as
 * for a single group's statement). When the scope closes, callers still queued are interrupted
 * with nothing marked (a stopping worker withdraws those attempts).
 */
export const makeMarkWriter: Effect.Effect<MarkWriter, never, DeliveryLedger | Scope.Scope> = Effect.gen(function*() {
  const ledger = yield* DeliveryLedger
  const clock = yield* Effect.clock
  let queued: Array<Waiter> = []
  let closed = false
  const wake = yield* Queue.sliding<void>(1)

  /** One statement for everything queued; each caller gets its own attempts that were held. */
  const writeBatch = Effect.uninterruptible(Effect.suspend(() => {
    const batch = queued
    queued = []
    if (batch.length === 0) return Effect.void
    const attempts = batch.length === 1 ? batch[0]!.attempts : batch.flatMap((w) => w.attempts)
    return Effect.flatMap(
      Effect.exit(ledger.markSending(attempts, new Date(clock.unsafeCurrentTimeMillis()))),
      (exit) => {
        const held = Exit.map(exit, (ids) => new Set(ids))
        return Effect.forEach(batch, (w) =>
          Deferred.done(
            w.done,
            Exit.map(held, (ids) => w.attempts.flatMap(({ claim }) => ids.has(claim.eventId) ? [claim.eventId] : []))
          ), { discard: true })
      }
    )
  }))

  // Added before the writer's fiber, so run after it is interrupted (after any statement under way).
  yield* Effect.addFinalizer(() =>
    Effect.suspend(() => {
      closed = true
      const left = queued
      queued = []
      return Effect.forEach(left, (w) => Deferred.interrupt(w.done), { discard: true })
    })
  )
  yield* Effect.forkScoped(Effect.forever(Effect.zipRight(Queue.take(wake), writeBatch)))

  const mark = (attempts: ReadonlyArray<HeldAttempt>) =>
    Effect.uninterruptible(Effect.suspend(() => {
      if (attempts.length === 0) return Effect.succeed([])
      if (closed) return Effect.interrupt
      return Effect.flatMap(Deferred.make<ReadonlyArray<string>>(), (done) => {
        const waiter: Waiter = { attempts, done }
        queued.push(waiter)
        Queue.unsafeOffer(wake, undefined)
        return Effect.catchAllCause(Effect.interruptible(Deferred.await(done)), (cause) => {
          // Still queued: taken out, nothing of it is written. Otherwise its statement has started
          // (or ended): only its answer tells what was marked.
          const index = queued.indexOf(waiter)
          if (index < 0) return Deferred.await(done)
          queued.splice(index, 1)
          return Effect.failCause(cause)
        })
      })
    }))

  return { mark }
})
