import { Effect } from "effect"

const describe = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v))

/**
 * Reads every 200 ms until `done` holds. It fails, with the last value, once the value has stopped
 * changing for `stalledAfterMs`: a loaded machine that makes slow progress gets the time it needs,
 * and a run that is stuck still fails. A value that keeps changing without getting there fails
 * after ten times that.
 */
export const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean, stalledAfterMs = 60_000) =>
  Effect.gen(function*() {
    const startedAt = Date.now()
    let last = ""
    let changedAt = startedAt
    while (true) {
      const value = yield* read
      if (done(value)) return value
      const seen = describe(value)
      if (seen !== last) {
        last = seen
        changedAt = Date.now()
      }
      if (Date.now() - changedAt > stalledAfterMs) {
        return yield* Effect.dieMessage(`not reached; unchanged for ${stalledAfterMs} ms: ${seen}`)
      }
      if (Date.now() - startedAt > 10 * stalledAfterMs) {
        return yield* Effect.dieMessage(`not reached in ${10 * stalledAfterMs} ms: ${seen}`)
      }
      yield* Effect.sleep("200 millis")
    }
  })
