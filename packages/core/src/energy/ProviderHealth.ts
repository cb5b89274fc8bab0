import { Clock, Duration, Effect, Ref } from "effect"

/**
 * Which rental providers are resting: a provider that failed, did not answer in time or
 * delivered less than it said is skipped until its cool-down ends. Kept in memory: a restarted
 * process gives every provider a fresh chance.
 */
/** One provider's rest, as the operator reads it. */
export interface ProviderRest {
  readonly provider: string
  readonly until: Date
  readonly reason: string
}

export interface ProviderHealth {
  readonly isResting: (provider: string) => Effect.Effect<boolean>
  /** The providers resting now, with why. */
  readonly resting: Effect.Effect<ReadonlyArray<ProviderRest>>
  /** Rests `provider` for the cool-down from now (a later fault starts it again). */
  readonly fault: (provider: string, reason: string) => Effect.Effect<void>
}

export const makeProviderHealth = (coolDown: Duration.DurationInput): Effect.Effect<ProviderHealth> =>
  Effect.map(Ref.make<ReadonlyMap<string, { readonly until: number; readonly reason: string }>>(new Map()), (rests) => ({
    isResting: (provider) =>
      Effect.zipWith(Ref.get(rests), Clock.currentTimeMillis, (current, now) => (current.get(provider)?.until ?? 0) > now),
    resting: Effect.zipWith(Ref.get(rests), Clock.currentTimeMillis, (current, now) =>
      [...current].filter(([, rest]) => rest.until > now).map(([provider, rest]) => ({ provider, until: new Date(rest.until), reason: rest.reason }))),
    fault: (provider, reason) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const until = now + Duration.toMillis(coolDown)
        return Ref.update(rests, (current) => new Map([...current, [provider, { until, reason }]])).pipe(
          Effect.zipRight(Effect.logWarning(`energy provider "${provider}" rests until ${new Date(until).toISOString()}: ${reason}`))
        )
      })
  }))
