import { Effect } from "effect"

/** Reads until `done` holds, every 200 ms, failing with the last value after `timeoutMs`. */
export const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean, timeoutMs = 60_000) =>
  Effect.gen(function*() {
    const until = Date.now() + timeoutMs
    while (true) {
      const value = yield* read
      if (done(value)) return value
      if (Date.now() > until) return yield* Effect.dieMessage(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`)
      yield* Effect.sleep("200 millis")
    }
  })
