import { Effect, Exit } from "effect"
import type { Network } from "../kernel/Network.js"

/**
 * The names a loop claims under, one per claim statement, and those of them whose work was
 * abandoned: a statement failed (the database went away, or a claim committed and its reply was
 * lost) and left rows claimed that no fiber will write. Handed back as soon as the database
 * answers again, they are not left to wait out their lease.
 *
 * A name is `<holder>#<n>` and is never given out twice by one `ClaimNames`: whatever the store
 * holds under it belongs to that one claim. So handing back everything held under an abandoned
 * name never takes a row from live work, whether of another fiber of the same holder (the run
 * loop and a `sweepOnce` share it) or of a later claim of the same row, and a write of the
 * abandoned work that lands late finds its claim gone. A name is marked abandoned only once its
 * work has ended (every fiber of it done or interrupted).
 */
export interface ClaimNames {
  /** A name for the next claim of `holder`. */
  readonly next: (holder: string) => string
  /** Runs `work` done under `name`; should it fail or be interrupted, `name` is marked abandoned. */
  readonly abandonOnFailure: (network: Network, name: string) => <A, E, R>(work: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Hands back the network's abandoned names through `release` (which frees every row still
   * claimed under them); forgotten once it succeeded, kept for the next try when it failed.
   */
  readonly handBack: <E, R>(network: Network, release: (names: ReadonlyArray<string>) => Effect.Effect<unknown, E, R>) => Effect.Effect<void, E, R>
}

export const makeClaimNames = (): ClaimNames => {
  let count = 0
  const abandoned = new Map<string, Network>()
  return {
    next: (holder) => `${holder}#${++count}`,
    abandonOnFailure: (network, name) => (work) =>
      Effect.onExit(work, (exit) => (Exit.isFailure(exit) ? Effect.sync(() => abandoned.set(name, network)) : Effect.void)),
    handBack: (network, release) =>
      Effect.suspend(() => {
        const names = [...abandoned].filter(([, of]) => of === network).map(([name]) => name)
        if (names.length === 0) return Effect.void
        return Effect.asVoid(Effect.tap(release(names), () => Effect.sync(() => names.forEach((name) => abandoned.delete(name)))))
      })
  }
}
