import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { makeClaimNames } from "./ClaimNames.js"

/** What a hand-back was asked to release, in order; it fails while `failing` holds. */
const recorder = () => {
  const calls: Array<ReadonlyArray<string>> = []
  let failing = false
  return {
    calls,
    fail: (on: boolean) => (failing = on),
    release: (names: ReadonlyArray<string>) =>
      Effect.suspend(() => {
        calls.push(names)
        return failing ? Effect.dieMessage("Connection terminated unexpectedly") : Effect.void
      })
  }
}

describe("ClaimNames", () => {
  it.effect("names each claim of a holder apart; only work that failed or was interrupted is abandoned", () =>
    Effect.gen(function*() {
      const names = makeClaimNames()
      const [a, b, c, d] = [names.next("w/1"), names.next("w/1"), names.next("w/1"), names.next("w/2")]
      expect(new Set([a, b, c, d]).size).toBe(4)
      expect(a!.startsWith("w/1#")).toBe(true)
      yield* names.abandonOnFailure("nile", a!)(Effect.void)
      yield* Effect.exit(names.abandonOnFailure("nile", b!)(Effect.dieMessage("lost")))
      yield* Effect.exit(names.abandonOnFailure("nile", c!)(Effect.interrupt))
      const seen = recorder()
      yield* names.handBack("nile", seen.release)
      expect(seen.calls).toEqual([[b, c]])
    }))

  it.effect("a hand-back that fails keeps its names for the next one; one that succeeded forgets them; each network its own", () =>
    Effect.gen(function*() {
      const names = makeClaimNames()
      const [onNile, onMain] = [names.next("w"), names.next("w")]
      yield* Effect.exit(names.abandonOnFailure("nile", onNile!)(Effect.dieMessage("lost")))
      yield* Effect.exit(names.abandonOnFailure("main", onMain!)(Effect.dieMessage("lost")))
      const seen = recorder()
      seen.fail(true)
      expect(Exit.isFailure(yield* Effect.exit(names.handBack("nile", seen.release)))).toBe(true)
      seen.fail(false)
      yield* names.handBack("nile", seen.release)
      yield* names.handBack("nile", seen.release)
      yield* names.handBack("main", seen.release)
      expect(seen.calls).toEqual([[onNile], [onNile], [onMain]])
    }))
})
