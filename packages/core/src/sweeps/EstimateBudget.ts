import { Schema } from "effect"

/**
 * Node requests one wallet's estimate may cost, counted high: the account reading (account,
 * resources and USDT balance), the energy estimate, and the blacklist check. The chain
 * parameters add one per estimate.
 */
export const nodeRequestsPerWalletEstimate = 6

/** What an estimate of `wallets` existing wallets is charged against its tenant's budget. */
export const estimateCost = (wallets: number) => wallets === 0 ? 0 : 1 + wallets * nodeRequestsPerWalletEstimate

/** The tenant's node budget for estimates is spent for now; nothing was asked of the node. */
export class EstimateBudgetExhausted extends Schema.TaggedError<EstimateBudgetExhausted>()("EstimateBudgetExhausted", {
  retryAfterSeconds: Schema.Number
}) {
  override get message() {
    return "too many requests: the sweep estimate budget of node requests is spent, retry later"
  }
}

/**
 * A bucket of node requests per tenant scope: full at `perMinute`, refilled evenly over a minute.
 * An estimate takes its whole cost up front or nothing, so it is never cut off half way. Kept in
 * the process's memory: each API process has its own.
 */
export const makeEstimateBudget = (perMinute: number) => {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const perMilli = perMinute / 60_000
  return (key: string, cost: number, nowMillis: number): { readonly taken: true } | { readonly taken: false; readonly retryAfterSeconds: number } => {
    const bucket = buckets.get(key) ?? { tokens: perMinute, at: nowMillis }
    const tokens = Math.min(perMinute, bucket.tokens + (nowMillis - bucket.at) * perMilli)
    if (tokens >= cost) {
      buckets.set(key, { tokens: tokens - cost, at: nowMillis })
      return { taken: true }
    }
    buckets.set(key, { tokens, at: nowMillis })
    return { taken: false, retryAfterSeconds: Math.max(1, Math.ceil((cost - tokens) / perMilli / 1000)) }
  }
}
