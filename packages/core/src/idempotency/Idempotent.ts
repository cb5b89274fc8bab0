import { Effect, Schema } from "effect"
import { type IdempotencyKey, IdempotencyStore, type SavedOutcome } from "./Idempotency.js"

/**
 * Runs `work` once per idempotency key and replays its saved outcome afterwards. Business
 * rejections (typed failures described by `rejection`) are saved and replayed as failures;
 * replays decode exactly what the first run encoded.
 */
export const idempotent = <A, AI, B, BI, E, R>(
  key: IdempotencyKey,
  paramsDigest: string,
  schemas: { readonly success: Schema.Schema<A, AI>; readonly rejection: Schema.Schema<B, BI> },
  work: Effect.Effect<A, B | E, R>
) =>
  Effect.gen(function*() {
    const store = yield* IdempotencyStore
    const encodeSuccess = Schema.encode(Schema.parseJson(schemas.success))
    const encodeRejection = Schema.encode(Schema.parseJson(schemas.rejection))
    const isRejection = Schema.is(schemas.rejection)
    const outcome = yield* store.once(
      key,
      paramsDigest,
      work.pipe(
        Effect.flatMap((a) => Effect.map(Effect.orDie(encodeSuccess(a)), (json): SavedOutcome => ({ _tag: "Succeeded", json }))),
        Effect.catchIf(
          (e): e is B => isRejection(e),
          (b) => Effect.map(Effect.orDie(encodeRejection(b)), (json): SavedOutcome => ({ _tag: "Rejected", json }))
        )
      ) as Effect.Effect<SavedOutcome, E, R>
    )
    if (outcome._tag === "Succeeded") {
      return yield* Effect.orDie(Schema.decode(Schema.parseJson(schemas.success))(outcome.json))
    }
    const rejection = yield* Effect.orDie(Schema.decode(Schema.parseJson(schemas.rejection))(outcome.json))
    return yield* Effect.fail(rejection)
  })

