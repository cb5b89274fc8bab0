import { Context, Data, Effect, Either, Layer, Option } from "effect"
import { keyCheckContext } from "./SealContext.js"
import { SecretBox } from "./SecretBox.js"
import { sealContextOf } from "./SealedOwnerContext.js"
import { SealedValues } from "./SealedValues.js"

/** The master keys at hand open none of the stored values: the current key is not theirs. */
export class MasterKeyMismatch extends Data.TaggedError("MasterKeyMismatch")<{
  readonly currentKeyId: string
  readonly previousKeyIds: ReadonlyArray<string>
  /** The key ids the values tried were sealed under. */
  readonly sealedUnder: ReadonlyArray<string>
}> {}

export interface KeyCheckResult {
  /** Created: this was the first start on the store (or the first since the check was added). */
  readonly keyCheck: "created" | "opened"
  /** Values sealed under a key other than the current one (counted only when older keys are configured). */
  readonly underOtherKeys: Option.Option<number>
}

/** What is sealed as the key check; any value would do, as opening it is what tells. */
const checkText = new TextEncoder().encode("collector master key check")

/** Values tried when a store from before the key check has none: enough to span a few keys. */
const sampleSize = 20

const make = Effect.gen(function*() {
  const store = yield* SealedValues
  const box = yield* SecretBox
  const mismatch = (sealedUnder: Iterable<string>) =>
    new MasterKeyMismatch({ currentKeyId: box.keyIds.current, previousKeyIds: box.keyIds.previous, sealedUnder: [...new Set(sealedUnder)] })

  const opens = (sealed: Parameters<typeof box.open>[0], context: Parameters<typeof box.open>[1]) =>
    Effect.map(Effect.either(box.open(sealed, context)), Either.isRight)

  /**
   * Opens the key check with the keys at hand, or fails with MasterKeyMismatch. On a store without
   * one, the values stored so far (a store from before the check) are tried first, so a wrong key
   * is never written down as the check; then the check is sealed under the current key.
   */
  const verify = Effect.gen(function*() {
    const found = yield* store.keyCheck
    let keyCheck: KeyCheckResult["keyCheck"] = "opened"
    if (Option.isSome(found)) {
      if (!(yield* opens(found.value, keyCheckContext))) return yield* mismatch([found.value.keyId])
    } else {
      const sample = yield* store.page(null, sampleSize)
      if (sample.length > 0) {
        const opened = yield* Effect.forEach(sample, (entry) => opens(entry.sealed, sealContextOf(entry.owner)))
        if (!opened.includes(true)) return yield* mismatch(sample.map((entry) => entry.sealed.keyId))
      }
      // Two processes starting together: the first check stored wins and both must open it.
      const stored = yield* store.createKeyCheck(yield* box.seal(checkText, keyCheckContext))
      if (!(yield* opens(stored, keyCheckContext))) return yield* mismatch([stored.keyId])
      keyCheck = "created"
    }
    const underOtherKeys = box.keyIds.previous.length === 0
      ? Option.none<number>()
      : Option.some((yield* store.countByKeyId).filter((c) => c.keyId !== box.keyIds.current).reduce((sum, c) => sum + c.count, 0))
    return { keyCheck, underOtherKeys } satisfies KeyCheckResult
  })

  return { verify }
})

/**
 * Tells at start whether the master keys are the store's: a known value sealed at first start
 * must open. A well-formed but wrong MASTER_KEY would otherwise start a service that can open no
 * app secret, webhook key or wallet key.
 */
export class MasterKeyCheck extends Context.Tag("@collector/core/MasterKeyCheck")<MasterKeyCheck, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(MasterKeyCheck, make)
}
