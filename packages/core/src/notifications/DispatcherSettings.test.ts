import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either } from "effect"
import { dispatcherConfig } from "./DispatcherSettings.js"

const read = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(dispatcherConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("dispatcherConfig", () => {
  it("has defaults and reads every variable", () => {
    expect(Either.getOrThrow(read({})).claimLease).toEqual(Duration.seconds(60))
    const settings = Either.getOrThrow(read({ NOTIFIER_CLAIM_LEASE_MS: "20000", NOTIFIER_PER_TENANT: "2", NOTIFIER_MAX_IN_FLIGHT: "16" }))
    expect(settings).toMatchObject({ claimLease: Duration.millis(20_000), perTenant: 2, maxInFlight: 16 })
    expect(Either.getOrThrow(read({}))).toMatchObject({ outcomeBatch: 256, outcomeRetry: Duration.millis(500) })
    expect(Either.getOrThrow(read({ NOTIFIER_OUTCOME_BATCH: "32", NOTIFIER_OUTCOME_RETRY_MS: "2000" }))).toMatchObject({
      outcomeBatch: 32,
      outcomeRetry: Duration.millis(2000)
    })
  })

  it("rejects a lease shorter than one attempt can take, naming the variable", () => {
    const result = read({ NOTIFIER_CLAIM_LEASE_MS: "5000" })
    if (Either.isRight(result)) throw new Error("expected a configuration error")
    expect(String(result.left)).toContain("NOTIFIER_CLAIM_LEASE_MS must be a whole number of at least 16000 (milliseconds)")
  })

  it("rejects a per-tenant limit of 0", () => {
    const result = read({ NOTIFIER_PER_TENANT: "0" })
    if (Either.isRight(result)) throw new Error("expected a configuration error")
    expect(String(result.left)).toContain("NOTIFIER_PER_TENANT must be a whole number from 1 to 4096")
  })
})
