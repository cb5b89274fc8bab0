import { Clock, Duration, Effect, Ref } from "effect"

/**
 * Which rental providers are resting: a provider that failed, did not answer in time or
 * delivered less than it said is skipped until its cool-down ends. Kept in memory: a restarted
 * process gives every provider a fresh chance.
 */
export interface ProviderHealth {
  readonly isResting: (provider: string) => Effect.Effect<boolean>
  /** Rests `provider` for the cool-down from now (a later fault starts it again). */
  readonly fault: (provider: string, reason: string) => Effect.Effect<void>
}

export const makeProviderHealth = (coolDown: Duration.DurationInput): Effect.Effect<ProviderHealth> =>
  Effect.map(Ref.make<ReadonlyMap<string, number>>(new Map()), (restingUntil) => ({
    isResting: (provider) =>
      Effect.zipWith(Ref.get(restingUntil), Clock.currentTimeMillis, (until, now) => (until.get(provider) ?? 0) > now),
    fault: (provider, reason) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const until = now + Duration.toMillis(coolDown)
        return Ref.update(restingUntil, (current) => new Map([...current, [provider, until]])).pipe(
          Effect.zipRight(Effect.logWarning(`energy provider "${provider}" rests until ${new Date(until).toISOString()}: ${reason}`))
        )
      })
  }))
