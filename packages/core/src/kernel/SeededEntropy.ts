import { Entropy } from "./Entropy.js"
import { Effect, Layer, Random } from "effect"

/**
 * Entropy drawn from a generator seeded with `seed`: wallet keys, app secrets, webhook keys and
 * the nonces of sealed secrets and webhook envelopes are the same in every run of a test, so
 * wallet addresses, txids and sealed bodies can be compared between runs. Effect's Random is not
 * a CSPRNG: this adapter exists for tests and nothing else.
 */
export const make = (seed: string): Entropy["Type"] => {
  const random = Random.make(seed)
  return Entropy.of({
    bytes: (length) =>
      Effect.gen(function*() {
        const out = new Uint8Array(length)
        for (let i = 0; i < length; i++) out[i] = yield* random.nextIntBetween(0, 256)
        return out
      })
  })
}

/** A fresh generator each time the layer is built: every kit starts from the same draws. */
export const layer = (seed: string): Layer.Layer<Entropy> => Layer.sync(Entropy, () => make(seed))
