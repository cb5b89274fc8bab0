import { Effect, Layer } from "effect"
import { StorageProbe } from "./StorageProbe.js"

// The memory store lives in this process: it always answers.
export const make = Effect.succeed(StorageProbe.of({ ping: Effect.void }))

export const layer = Layer.effect(StorageProbe, make)
