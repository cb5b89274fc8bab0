import type { Redacted } from "effect"

/** What `new CollectorClient(options)` takes: plain values, no Effect types needed. */
export interface CollectorClientOptions {
  /** The service's base URL, for example `https://collector.example.com`. */
  readonly baseUrl: string
  /** The app ID of one tenant network, as printed at provisioning. */
  readonly appId: string
  /** The app's secret, as printed at provisioning (a string, or an Effect `Redacted` string). */
  readonly appSecret: string | Redacted.Redacted<string>
  /** Per-attempt timeout in milliseconds (default 20000); a timed-out attempt is sent again. */
  readonly timeoutMs?: number
  /** Attempts after the first for timeouts, network errors, 429 and 503 (default 3). */
  readonly maxRetries?: number
  /** Fetch a new access token this many milliseconds before the current one expires (default 300000). */
  readonly tokenRefreshMarginMs?: number
  /** The `fetch` to send with (default: the global one), for proxies, agents or recording. */
  readonly fetch?: typeof globalThis.fetch
}
