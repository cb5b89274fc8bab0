import { Clock, Context, Duration, Effect, Layer } from "effect"
import { AccessTokenRepository } from "../tenants/AccessTokenRepository.js"
import { IdempotencyStore } from "../idempotency/Idempotency.js"
import { recordPruningConfig, type RecordPruningSettings } from "./RecordPruningSettings.js"

export interface PrunedCounts {
  readonly accessTokens: number
  readonly idempotencyRecords: number
}

/** Deletes in batches until a batch comes back short or the pass's batches are spent. */
const drain = (batch: Effect.Effect<number>, batchSize: number, maxBatches: number) =>
  Effect.iterate({ total: 0, batches: 0, last: batchSize }, {
    while: (state) => state.last === batchSize && state.batches < maxBatches,
    body: (state) => Effect.map(batch, (n) => ({ total: state.total + n, batches: state.batches + 1, last: n }))
  }).pipe(Effect.map((state) => state.total))

const make = (settings: RecordPruningSettings) =>
  Effect.gen(function*() {
    const tokens = yield* AccessTokenRepository
    const idempotency = yield* IdempotencyStore
    const keepForever = Duration.toMillis(settings.idempotencyRetention) === 0

    /** One pass: expired tokens (useless the moment they expire), then records past retention. */
    const pruneOnce = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const accessTokens = yield* drain(tokens.deleteExpired(new Date(now), settings.batchSize), settings.batchSize, settings.maxBatchesPerPass)
      const before = new Date(now - Duration.toMillis(settings.idempotencyRetention))
      const idempotencyRecords = keepForever
        ? 0
        : yield* drain(idempotency.prune(before, settings.batchSize), settings.batchSize, settings.maxBatchesPerPass)
      return { accessTokens, idempotencyRecords } satisfies PrunedCounts
    })

    /** Passes forever, `interval` apart; a failed pass is logged and the next one tries again. */
    const run = Effect.forever(
      pruneOnce.pipe(
        Effect.tap((counts) => counts.accessTokens + counts.idempotencyRecords > 0 ? Effect.logDebug("pruned records", counts) : Effect.void),
        Effect.catchAllCause((cause) => Effect.logWarning("record pruning failed", cause)),
        Effect.zipRight(Effect.sleep(settings.interval))
      )
    )

    return { pruneOnce, run } as const
  })

/**
 * Keeps the tables every request writes to (access tokens, idempotency records) flat: the worker
 * runs it once per process, beside the engines, since neither table belongs to one network.
 */
export class RecordPruning extends Context.Tag("@collector/core/RecordPruning")<RecordPruning, Effect.Effect.Success<ReturnType<typeof make>>>() {
  static readonly layer = (settings: RecordPruningSettings) => Layer.effect(RecordPruning, make(settings))
  static readonly layerConfig = Layer.unwrapEffect(Effect.map(recordPruningConfig, RecordPruning.layer))
}
