import { Entropy } from "@collector/core"
import { Effect, Layer, Random } from "effect"

/**
 * Entropy drawn from a seeded generator: every key, secret and nonce of a simulated run is the
 * same each time the run is replayed. Never a source of secrets outside a simulation: Effect's
 * Random is not a CSPRNG.
 */
export const make = (seed: string): Entropy["Type"] => {
  const random = Random.make(seed)
  return {
    bytes: (length) =>
      Effect.gen(function*() {
        const out = new Uint8Array(length)
        for (let i = 0; i < length; i++) out[i] = yield* random.nextIntBetween(0, 256)
        return out
      })
  }
}

export const layer = (seed: string): Layer.Layer<Entropy> => Layer.sync(Entropy, () => make(seed))
