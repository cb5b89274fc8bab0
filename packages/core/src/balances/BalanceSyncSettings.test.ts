import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect } from "effect"
import { balanceSyncConfig, defaultBalanceSyncSettings } from "./BalanceSyncSettings.js"

const read = (env: Record<string, string>) =>
  Effect.withConfigProvider(balanceSyncConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("balanceSyncConfig", () => {
  it.effect("defaults to under half of the adapter's 10 requests a second", () =>
    Effect.gen(function*() {
      const config = yield* read({})
      expect(config).toEqual(defaultBalanceSyncSettings)
      // 4 requests a wallet, plus one solidified block a batch.
      const requestsPerSecond = config.walletsPerSecond * 4 + config.walletsPerSecond / config.batchSize
      expect(requestsPerSecond).toBeLessThanOrEqual(5)
    }))

  it.effect("reads the variables", () =>
    Effect.gen(function*() {
      const config = yield* read({
        BALANCE_SYNC_WALLETS_PER_SECOND: "0.5",
        BALANCE_SYNC_BATCH: "100",
        BALANCE_SYNC_CONCURRENCY: "8",
        BALANCE_SYNC_BACKOFF_MS: "1000",
        BALANCE_SYNC_MAX_BACKOFF_MS: "60000"
      })
      expect(config).toEqual({ walletsPerSecond: 0.5, batchSize: 100, concurrency: 8, backoff: Duration.millis(1000), maxBackoff: Duration.millis(60_000) })
    }))

  it.effect("names the variable and the allowed values when one is wrong", () =>
    Effect.gen(function*() {
      const message = (env: Record<string, string>) => Effect.map(Effect.flip(read(env)), String)
      expect(yield* message({ BALANCE_SYNC_WALLETS_PER_SECOND: "0" })).toContain(
        "BALANCE_SYNC_WALLETS_PER_SECOND must be a number greater than 0 and at most 1000"
      )
      expect(yield* message({ BALANCE_SYNC_BATCH: "0" })).toContain("BALANCE_SYNC_BATCH must be a whole number from 1 to 1000 (wallets per batch)")
      expect(yield* message({ BALANCE_SYNC_BATCH: "ten" })).toContain("BALANCE_SYNC_BATCH must be a whole number from 1 to 1000")
      expect(yield* message({ BALANCE_SYNC_BACKOFF_MS: "9000", BALANCE_SYNC_MAX_BACKOFF_MS: "8000" })).toContain(
        "BALANCE_SYNC_MAX_BACKOFF_MS must not be below BALANCE_SYNC_BACKOFF_MS"
      )
    }))
})
