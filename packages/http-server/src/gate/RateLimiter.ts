/**
 * A token bucket per app: `burst` requests at once, refilled at `ratePerSecond`. Returns the
 * whole seconds to wait when the bucket is empty.
 */
export const makeRateLimiter = (ratePerSecond: number, burst: number) => {
  const buckets = new Map<string, { tokens: number; at: number }>()
  return (key: string, nowMillis: number): { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number } => {
    const bucket = buckets.get(key) ?? { tokens: burst, at: nowMillis }
    const refilled = Math.min(burst, bucket.tokens + ((nowMillis - bucket.at) / 1000) * ratePerSecond)
    if (refilled >= 1) {
      buckets.set(key, { tokens: refilled - 1, at: nowMillis })
      return { allowed: true }
    }
    buckets.set(key, { tokens: refilled, at: nowMillis })
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - refilled) / ratePerSecond)) }
  }
}
