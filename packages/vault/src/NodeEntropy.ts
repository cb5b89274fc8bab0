import { randomBytes } from "node:crypto"
import { Kernel } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Entropy from the OS CSPRNG. Copied into a plain Uint8Array so callers never hold a view
 * into a larger Node buffer. A negative or non-integer length is a programming error and dies.
 */
export const make: Kernel.Entropy["Type"] = {
  bytes: (length) => Effect.sync(() => Uint8Array.from(randomBytes(length)))
}

export const layer: Layer.Layer<Kernel.Entropy> = Layer.succeed(Kernel.Entropy, make)
