import { Clock, Duration, Effect, Option, SynchronizedRef } from "effect"

interface Held {
  readonly token: string
  readonly expiresAtMillis: number
}

/**
 * Holds the current access token and fetches a new one when it is missing, near expiry or
 * invalidated. Concurrent callers share one fetch.
 */
export const makeTokenCache = <E>(
  fetch: Effect.Effect<{ readonly access_token: string; readonly expires_in: number }, E>,
  refreshMargin: Duration.DurationInput
) =>
  Effect.gen(function*() {
    const margin = Duration.toMillis(Duration.decode(refreshMargin))
    const held = yield* SynchronizedRef.make(Option.none<Held>())
    const current = SynchronizedRef.modifyEffect(held, (value) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        if (Option.isSome(value) && value.value.expiresAtMillis - margin > now) return [value.value.token, value] as const
        const issued = yield* fetch
        const next: Held = { token: issued.access_token, expiresAtMillis: now + issued.expires_in * 1000 }
        return [next.token, Option.some(next)] as const
      }))
    const invalidate = (token: string) =>
      SynchronizedRef.update(held, (value) => (Option.isSome(value) && value.value.token === token ? Option.none() : value))
    return { current, invalidate } as const
  })
