/**
 * What one client address may cost the server before it has authenticated: a few requests at a
 * time in the unauthenticated phase (app look-up, body read, signature and token checks), and a
 * bucket of failures (unknown app, bad signature or token, unavailable tenant) refilled at
 * `failuresPerSecond`. An empty bucket turns the address away before any look-up or body read.
 * Tenants' in-flight slots are taken only after authentication, so no address can hold them
 * unauthenticated. Both tables are dropped whole past a bound, as the authenticator's caches are.
 */
export const makeAddressBudget = (settings: {
  readonly inFlightPerAddress: number
  readonly failuresPerSecond: number
  readonly failureBurst: number
}) => {
  const inFlight = new Map<string, number>()
  const failures = new Map<string, { tokens: number; at: number }>()
  const bound = 100_000

  const tokensAt = (address: string, now: number) => {
    const bucket = failures.get(address)
    return bucket === undefined
      ? settings.failureBurst
      : Math.min(settings.failureBurst, bucket.tokens + ((now - bucket.at) / 1000) * settings.failuresPerSecond)
  }

  return {
    /** Whole seconds until the address may fail again, or 0 if it may try now. */
    failureWait: (address: string, now: number): number => {
      const tokens = tokensAt(address, now)
      return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / settings.failuresPerSecond))
    },
    /** One failure of the address. */
    chargeFailure: (address: string, now: number) => {
      if (failures.size >= bound) failures.clear()
      failures.set(address, { tokens: Math.max(0, tokensAt(address, now) - 1), at: now })
    },
    /** Takes one of the address's unauthenticated places; false when they are all taken. */
    enter: (address: string): boolean => {
      const n = inFlight.get(address) ?? 0
      if (n >= settings.inFlightPerAddress) return false
      if (n === 0 && inFlight.size >= bound) return false
      inFlight.set(address, n + 1)
      return true
    },
    leave: (address: string) => {
      const n = (inFlight.get(address) ?? 1) - 1
      if (n <= 0) inFlight.delete(address)
      else inFlight.set(address, n)
    }
  } as const
}
