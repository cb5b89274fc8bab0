import { expect, layer } from "@effect/vitest"
import { Effect, Exit, type Layer } from "effect"
import { StorageProbe } from "./StorageProbe.js"

/** What every StorageProbe must do on a store that is up; the health check relies on it. */
export const storageProbeContract = <E>(name: string, storage: Layer.Layer<StorageProbe, E>) =>
  layer(storage)(`StorageProbe contract (${name})`, (it) => {
    it.effect("answers, again and again, while the store is reachable", () =>
      Effect.gen(function*() {
        const probe = yield* StorageProbe
        const answers = yield* Effect.all([probe.ping, probe.ping, probe.ping].map(Effect.exit), { concurrency: "unbounded" })
        expect(answers).toEqual([Exit.void, Exit.void, Exit.void])
      }))
  })
