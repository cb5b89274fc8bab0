import { Context, Effect, Either, Layer, Option } from "effect"
import { SecretBox } from "./SecretBox.js"
import { sealContextOf } from "./SealedOwnerContext.js"
import { type KeyIdCount, type ResealProgress, type SealedEntry, SealedValues } from "./SealedValues.js"

export interface ResealOptions {
  /** Values read and written per step; each step's progress is stored before the next. */
  readonly batchSize: number
  /** Called after each stored step. */
  readonly onProgress?: (progress: ResealProgress) => Effect.Effect<void>
}

export interface ResealReport extends ResealProgress {
  /** Whether this run went on from a stored position (an interrupted run under the same key). */
  readonly resumed: boolean
}

/** Where the stored values stand: how many each master key seals, and a re-seal in progress. */
export interface SealedStatus {
  readonly currentKeyId: string
  readonly previousKeyIds: ReadonlyArray<string>
  readonly counts: ReadonlyArray<KeyIdCount>
  /** Values sealed under any key but the current one: they keep the older keys needed. */
  readonly underOtherKeys: number
  readonly progress: Option.Option<ResealProgress>
}

export const maxBatchSize = 10_000

type Outcome = "resealed" | "current" | "changed" | "unreadable"

const make = Effect.gen(function*() {
  const store = yield* SealedValues
  const box = yield* SecretBox

  /**
   * One value: left alone when already sealed as the current key seals; otherwise opened for its
   * own place, sealed again for it and written only if it is still the value read (a rotation in
   * between wrote a fresh one, which stays).
   */
  const resealOne = (entry: SealedEntry): Effect.Effect<Outcome> => {
    if (box.isCurrent(entry.sealed)) return Effect.succeed("current")
    const context = sealContextOf(entry.owner)
    return Effect.flatMap(Effect.either(box.open(entry.sealed, context)), (opened) =>
      Either.isLeft(opened)
        ? Effect.succeed<Outcome>("unreadable")
        : box.seal(opened.right, context).pipe(
          // The plaintext is wiped once sealed again, whatever happens next.
          Effect.ensuring(Effect.sync(() => opened.right.fill(0))),
          Effect.flatMap((next) => store.replace(entry.position, entry.sealed, next)),
          Effect.map((written): Outcome => written ? "resealed" : "changed")
        ))
  }

  const reseal = (options: ResealOptions) =>
    Effect.gen(function*() {
      // A batch of none would end the walk at once and report nothing done.
      if (!Number.isSafeInteger(options.batchSize) || options.batchSize < 1 || options.batchSize > maxBatchSize) {
        return yield* Effect.dieMessage(`re-seal batch size must be from 1 to ${maxBatchSize}, got ${options.batchSize}`)
      }
      const keyId = box.keyIds.current
      // A stored position under another key belongs to an earlier rotation: start over.
      const stored = Option.filter(yield* store.progress, (p) => p.keyId === keyId)
      let progress: ResealProgress = Option.getOrElse(stored, () => ({ keyId, after: null, resealed: 0, current: 0, changed: 0, unreadable: 0 }))
      for (;;) {
        const batch = yield* store.page(progress.after, options.batchSize)
        if (batch.length === 0) break
        const counts = { resealed: 0, current: 0, changed: 0, unreadable: 0 }
        for (const entry of batch) counts[yield* resealOne(entry)] += 1
        progress = {
          keyId,
          after: batch[batch.length - 1]!.position,
          resealed: progress.resealed + counts.resealed,
          current: progress.current + counts.current,
          changed: progress.changed + counts.changed,
          unreadable: progress.unreadable + counts.unreadable
        }
        yield* store.saveProgress(progress)
        if (options.onProgress !== undefined) yield* options.onProgress(progress)
      }
      // Walked to the end: the next run starts from the beginning (and finds everything current).
      yield* store.clearProgress
      return { ...progress, resumed: Option.isSome(stored) } satisfies ResealReport
    })

  const status = Effect.gen(function*() {
    const counts = yield* store.countByKeyId
    return {
      currentKeyId: box.keyIds.current,
      previousKeyIds: box.keyIds.previous,
      counts,
      underOtherKeys: counts.filter((c) => c.keyId !== box.keyIds.current).reduce((sum, c) => sum + c.count, 0),
      progress: yield* store.progress
    } satisfies SealedStatus
  })

  return { reseal, status }
})

/**
 * Re-seals every stored value under the current master key, so that older keys can be retired.
 * Online: each value is written by compare-and-set on the value read, so a concurrent change is
 * never overwritten. Resumable: the walk's position is stored after every batch, and a run under
 * the same key goes on from there. Idempotent: a value already sealed as the current key seals
 * is left as it is.
 */
export class Resealer extends Context.Tag("@collector/core/Resealer")<Resealer, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Resealer, make)
}
