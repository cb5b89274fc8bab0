import type { Duration, Redacted } from "effect"

export interface SdkConfig {
  readonly baseUrl: string
  readonly appId: string
  readonly appSecret: Redacted.Redacted<string>
  /** Per-attempt timeout; a timed-out request is sent again (writes keep their request_id). */
  readonly timeout?: Duration.DurationInput
  /** Attempts after the first for timeouts, transport errors, 429 and 503. */
  readonly maxRetries?: number
  /** Refresh a token this long before it expires. */
  readonly tokenRefreshMargin?: Duration.DurationInput
}
