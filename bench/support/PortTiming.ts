import { type Context, Effect, Layer } from "effect"

/**
 * Summed latency of every call through the ports a benchmark wraps, by port and operation
 * (concurrent calls overlap, so the sums can exceed the wall time). Counts only while `on`.
 */
export const makePortTiming = () => {
  const latencies = new Map<string, { n: number; ms: number }>()
  const state = { on: false }

  const timed = <A, E, R>(name: string, effect: Effect.Effect<A, E, R>) =>
    Effect.suspend(() => {
      if (!state.on) return effect
      const started = performance.now()
      return Effect.ensuring(effect, Effect.sync(() => {
        const entry = latencies.get(name) ?? { n: 0, ms: 0 }
        latencies.set(name, { n: entry.n + 1, ms: entry.ms + performance.now() - started })
      }))
    })

  /** The service with each of its operations timed: the production adapter underneath, unchanged. */
  const instrumented = <I, S extends object>(tag: Context.Tag<I, S>, prefix: string) =>
    Layer.effect(tag, Effect.map(tag, (service) =>
      Object.fromEntries(Object.entries(service).map(([key, value]) => [
        key,
        Effect.isEffect(value)
          ? timed(`${prefix}.${key}`, value)
          : typeof value === "function"
          ? (...args: Array<unknown>) => timed(`${prefix}.${key}`, (value as (...a: Array<unknown>) => Effect.Effect<unknown>)(...args))
          : value
      ])) as S))

  /** Each operation's count and summed milliseconds, largest total first. */
  const entries = () => [...latencies.entries()].sort((a, b) => b[1].ms - a[1].ms)

  /** `name total s / count (mean ms)`, largest total first. */
  const summary = () => entries().map(([name, e]) => `${name} ${(e.ms / 1000).toFixed(1)} s / ${e.n} (${(e.ms / e.n).toFixed(1)} ms)`).join(", ")

  return {
    instrumented,
    entries,
    summary,
    start: () => void (state.on = true),
    stop: () => void (state.on = false),
    reset: () => latencies.clear()
  }
}
