import { Effect, Option } from "effect"
import { DepositRevisionStore, type RevisionOutcome } from "./DepositRevisionStore.js"
import type { ReceiverStoreError } from "./ReceiverStoreError.js"
import { type RevisionDecision, revisionDecision } from "./RevisionDecision.js"

/** What the rule needs of a deposit: a webhook `DepositEvent` and a queried `DepositRecord` both fit. */
export interface DepositRevision {
  readonly id: string
  readonly revision: number
}

/**
 * Books `deposit` with `book` if its revision is above the highest booked for its `id`, else
 * answers `Acknowledged` without running `book`. Use it for decrypted notifications and for
 * deposit query results alike, so that whichever arrives first wins and nothing is booked twice.
 */
export const applyDepositRevision = <A, E, R>(
  deposit: DepositRevision,
  book: Effect.Effect<A, E, R>
): Effect.Effect<RevisionOutcome<A>, E | ReceiverStoreError, R | DepositRevisionStore> =>
  Effect.flatMap(DepositRevisionStore, (store) => store.bookIfHigher(deposit.id, deposit.revision, book))

/** The decision alone, read from the store (advisory: only `applyDepositRevision` is atomic). */
export const decideDepositRevision = (deposit: DepositRevision): Effect.Effect<RevisionDecision, ReceiverStoreError, DepositRevisionStore> =>
  Effect.flatMap(DepositRevisionStore, (store) =>
    Effect.map(store.highest(deposit.id), (highest) => revisionDecision(Option.getOrUndefined(highest), deposit.revision)))
