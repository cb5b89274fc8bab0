import { it } from "@effect/vitest"
import { Effect, type Layer, type TestServices } from "effect"

/**
 * Declares tests that each run on a store of their own, built from `storage` for that test alone:
 * for ports that read or claim across a whole network (there are only two), where a test cannot
 * tell its own rows from another test's. Test time (TestClock) starts at 0 in every test.
 */
export const onFreshStorage = <R, E>(storage: Layer.Layer<R, E>) =>
<A, E2>(name: string, body: () => Effect.Effect<A, E2, R | TestServices.TestServices>) =>
  it.effect(name, () => Effect.provide(body(), storage))
