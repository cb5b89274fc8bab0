import { Context, Effect, Layer, Option } from "effect"
import type { ReceiverStoreError } from "./ReceiverStoreError.js"
import { type RevisionDecision, revisionDecision } from "./RevisionDecision.js"

export type RevisionOutcome<A> =
  | { readonly _tag: "Applied"; readonly value: A }
  | { readonly _tag: "Acknowledged"; readonly highestBooked: number }

/**
 * The highest booked revision per deposit `id`.
 *
 * `bookIfHigher` must decide, book and record as one unit per deposit: otherwise revisions 2 and
 * 3 arriving together could both pass the check and 2 could be booked last. Production must use
 * a persistent store; the SQL shape is one transaction that locks the deposit's row
 * (`SELECT ... FOR UPDATE`), compares, runs the booking and writes the new revision, so a failed
 * booking also leaves the old revision in place.
 */
export interface DepositRevisionStoreService {
  readonly highest: (depositId: string) => Effect.Effect<Option.Option<number>, ReceiverStoreError>
  /** Runs `book` only for a higher revision and records the revision only when `book` succeeds. */
  readonly bookIfHigher: <A, E, R>(
    depositId: string,
    revision: number,
    book: Effect.Effect<A, E, R>
  ) => Effect.Effect<RevisionOutcome<A>, E | ReceiverStoreError, R>
}

export class DepositRevisionStore extends Context.Tag("@collector/sdk/DepositRevisionStore")<DepositRevisionStore, DepositRevisionStoreService>() {
  /** In-memory store for tests and demonstrations only: forgotten on restart. */
  static readonly layerMemory: Layer.Layer<DepositRevisionStore> = Layer.sync(DepositRevisionStore, () => makeMemoryDepositRevisionStore())
}

/** Map plus one lock per deposit, so different deposits are booked in parallel. */
export const makeMemoryDepositRevisionStore = (): DepositRevisionStoreService & { readonly revisions: ReadonlyMap<string, number> } => {
  const revisions = new Map<string, number>()
  const locks = new Map<string, Effect.Semaphore>()
  const lockOf = (depositId: string) => {
    let lock = locks.get(depositId)
    if (lock === undefined) {
      lock = Effect.unsafeMakeSemaphore(1)
      locks.set(depositId, lock)
    }
    return lock
  }
  return {
    revisions,
    highest: (depositId) => Effect.sync(() => Option.fromNullable(revisions.get(depositId))),
    bookIfHigher: <A, E, R>(depositId: string, revision: number, book: Effect.Effect<A, E, R>) =>
      lockOf(depositId).withPermits(1)(
        Effect.suspend((): Effect.Effect<RevisionOutcome<A>, E, R> => {
          const highest = revisions.get(depositId)
          const decision: RevisionDecision = revisionDecision(highest, revision)
          if (decision === "acknowledge") return Effect.succeed({ _tag: "Acknowledged", highestBooked: highest! })
          return book.pipe(
            Effect.tap(() => Effect.sync(() => revisions.set(depositId, revision))),
            Effect.map((value) => ({ _tag: "Applied" as const, value }))
          )
        })
      )
  }
}
