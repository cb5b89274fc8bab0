import { Deposits, Idempotency, Notifications, Settings, Sweeps, Wallets } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Data, Effect } from "effect"
import { type DomainError, toEnvelope } from "./ErrorMapping.js"

// The contract's error code for each failure, written by hand from the contract's error codes
// (docs/contract.md, docs/api-platform.md) rather than read from the mapping under test.
const expected: ReadonlyArray<readonly [DomainError, string]> = [
  [new Idempotency.IdempotencyConflict({ requestId: "r" }), "IDEMPOTENCY_CONFLICT"],
  [new Wallets.CustomIdTaken({ customId: "c" }), "BUSINESS_CONFLICT"],
  [new Notifications.EventNotRedeliverable({ eventId: "e", status: "pending" }), "BUSINESS_CONFLICT"],
  [new Wallets.WalletLimitReached({ limit: 1 }), "BUSINESS_CONFLICT"],
  [new Wallets.WalletNotFound({ walletId: "w" }), "RESOURCE_NOT_FOUND"],
  [new Deposits.DepositNotFound({ depositId: "d" }), "RESOURCE_NOT_FOUND"],
  [new Notifications.EventNotFound({ eventId: "e" }), "RESOURCE_NOT_FOUND"],
  [new Sweeps.SweepNotFound({ taskId: "t" }), "RESOURCE_NOT_FOUND"],
  [new Settings.SettingRejected({ reason: "no" }), "INVALID_ARGUMENT"],
  [new Wallets.SelectionTooLarge({ limit: 1 }), "INVALID_ARGUMENT"],
  [new Sweeps.EstimateBudgetExhausted({ retryAfterSeconds: 1 }), "RATE_LIMITED"],
  [new Sweeps.SweepEstimateUnavailable({ network: "main" }), "INTERNAL_ERROR"]
]

class UnmappedFailure extends Data.TaggedError("UnmappedFailure")<{ readonly message: string }> {}

describe("toEnvelope", () => {
  it.effect.each(expected)("maps %s to its contract code", ([error, code]) =>
    Effect.gen(function*() {
      const envelope = yield* Effect.flip(toEnvelope(Effect.fail(error)))
      expect(envelope.error_code).toBe(code)
    }))

  it("refuses, at the typecheck, a failure that has no mapping", () => {
    // @ts-expect-error: a tagged failure outside DomainError cannot be handed to the boundary.
    const unmapped = () => toEnvelope(Effect.fail(new UnmappedFailure({ message: "x" })))
    expect(typeof unmapped).toBe("function")
  })
})
