import { Effect } from "effect"

/**
 * Reads every 200 ms until `done` holds. It fails, with the last value, only once the value has
 * stopped changing for `stalledAfterMs`: a loaded machine that makes slow progress gets the time it
 * needs, and a run that is stuck still fails.
 */
export const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean, stalledAfterMs = 60_000) =>
  Effect.gen(function*() {
    let last = ""
    let changedAt = Date.now()
    while (true) {
      const value = yield* read
      if (done(value)) return value
      const seen = JSON.stringify(value)
      if (seen !== last) {
        last = seen
        changedAt = Date.now()
      }
      if (Date.now() - changedAt > stalledAfterMs) {
        return yield* Effect.dieMessage(`not reached; unchanged for ${stalledAfterMs} ms: ${seen}`)
      }
      yield* Effect.sleep("200 millis")
    }
  })
