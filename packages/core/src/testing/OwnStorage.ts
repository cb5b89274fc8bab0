import { it } from "@effect/vitest"
import { Effect, type Layer } from "effect"

/**
 * Declares tests that each build `storage` for themselves, for suites whose operations read a
 * whole network (a claim takes every due event of it): another test's events would be in the way.
 */
export const testsOnOwnStorage = <Ports, E>(storage: Layer.Layer<Ports, E>) =>
  (title: string, body: () => Effect.Effect<void, unknown, Ports>) => it.effect(title, () => Effect.provide(body(), storage))
