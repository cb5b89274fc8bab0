import { Context, type Effect, Schema } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import * as RowRule from "../kernel/RowRule.js"

/** The fields of a stored idempotency record `prune` reads; `outcome` is "running" while its request is. */
export interface IdempotencyRecordAge {
  readonly outcome: string
  readonly createdAt: Date
}

/** A finished record created before `before` may be pruned; a running one never is (the rule both drivers use). */
export const idempotencyPrunable: RowRule.Rule<IdempotencyRecordAge, { readonly before: Date }> = RowRule.all<
  IdempotencyRecordAge,
  { readonly before: Date }
>(
  RowRule.compare(RowRule.field<IdempotencyRecordAge>("outcome"), "<>", RowRule.literal("running")),
  RowRule.compare(RowRule.field<IdempotencyRecordAge>("createdAt"), "<", RowRule.param<{ readonly before: Date }>("before"))
)

/**
 * Idempotency is scoped to (tenant, network, operation, request_id) and kept for the operator's
 * retention (forever by default, as the contract promises; `RecordPruning.ts`).
 */
export interface IdempotencyKey {
  readonly tenantId: TenantId
  readonly network: Network
  readonly operation: string
  readonly requestId: string
}

/**
 * The saved result of a write: the encoded success data, or an encoded business rejection
 * (a rejection is saved too, so a retry with the same key gets the same answer).
 */
export type SavedOutcome =
  | { readonly _tag: "Succeeded"; readonly json: string }
  | { readonly _tag: "Rejected"; readonly json: string }

export class IdempotencyConflict extends Schema.TaggedError<IdempotencyConflict>()("IdempotencyConflict", {
  requestId: Schema.String
}) {
  override get message() {
    return "conflict: idempotency key already used with another request"
  }
}

/**
 * Port: runs a write at most once per key. A concurrent duplicate waits for the first to
 * finish and then gets its saved outcome; a `Rejected` outcome keeps the key but none of
 * the work's writes; a failure of the work itself (storage down) keeps nothing.
 */
export class IdempotencyStore extends Context.Tag("@collector/core/IdempotencyStore")<
  IdempotencyStore,
  {
    readonly once: <E, R>(
      key: IdempotencyKey,
      paramsDigest: string,
      work: Effect.Effect<SavedOutcome, E, R>
    ) => Effect.Effect<SavedOutcome, E | IdempotencyConflict, R>
    /**
     * Deletes at most `limit` finished records created before `before` (a bounded batch);
     * returns how many. A record whose request is still running is never deleted.
     */
    readonly prune: (before: Date, limit: number) => Effect.Effect<number>
  }
>() {}
