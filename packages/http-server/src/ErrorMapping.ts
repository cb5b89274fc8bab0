import { type ApiError, apiError } from "@collector/api"
import { HttpApp, HttpServerResponse } from "@effect/platform"
import type { Deposits, Idempotency, Notifications, Settings, Sweeps, Wallets } from "@collector/core"
import { Effect, FiberRef } from "effect"
import { currentTraceId } from "./gate/RequestContext.js"

/**
 * Every typed failure a handler may hand to the boundary. A handler whose error channel holds
 * anything else does not compile at `toEnvelope`, and a member without an entry in `envelopes`
 * does not compile either: a new core error cannot reach a tenant as an unmapped 500.
 */
export type DomainError =
  | Idempotency.IdempotencyConflict
  | Wallets.CustomIdTaken
  | Notifications.EventNotRedeliverable
  | Wallets.WalletLimitReached
  | Wallets.WalletNotFound
  | Deposits.DepositNotFound
  | Notifications.EventNotFound
  | Sweeps.SweepNotFound
  | Settings.SettingRejected
  | Wallets.SelectionTooLarge
  | Sweeps.EstimateBudgetExhausted
  | Wallets.KeyGenerationFailed
  | Sweeps.SweepEstimateUnavailable

type Envelopes = { readonly [Tag in DomainError["_tag"]]: (error: Extract<DomainError, { readonly _tag: Tag }>, traceId: string) => ApiError }

const conflict = (error: DomainError, traceId: string) => apiError("BUSINESS_CONFLICT", error.message, traceId)
const notFound = (_: DomainError, traceId: string) => apiError("RESOURCE_NOT_FOUND", "resource not found", traceId)
const invalid = (error: DomainError, traceId: string) => apiError("INVALID_ARGUMENT", error.message, traceId)

const envelopes: Envelopes = {
  IdempotencyConflict: (error, traceId) => apiError("IDEMPOTENCY_CONFLICT", error.message, traceId),
  CustomIdTaken: conflict,
  EventNotRedeliverable: conflict,
  WalletLimitReached: conflict,
  WalletNotFound: notFound,
  DepositNotFound: notFound,
  EventNotFound: notFound,
  SweepNotFound: notFound,
  SettingRejected: invalid,
  SelectionTooLarge: invalid,
  // Its Retry-After is set by the handler (`withRetryAfter`), which knows the seconds.
  EstimateBudgetExhausted: (error, traceId) => apiError("RATE_LIMITED", error.message, traceId),
  // The token's reason stays in the log (keyStoreUnavailable); the tenant learns only to retry.
  KeyGenerationFailed: (_, traceId) => apiError("SERVICE_UNAVAILABLE", "service unavailable: the key store cannot make a key now, retry later", traceId),
  // A dependency failure whose message names no host or detail; the cause was logged where it happened.
  SweepEstimateUnavailable: (error, traceId) => apiError("INTERNAL_ERROR", error.message, traceId)
}

const envelopeFor = (error: DomainError, traceId: string): ApiError => (envelopes[error._tag] as (error: DomainError, traceId: string) => ApiError)(error, traceId)

const isEnvelope = (error: DomainError | ApiError): error is ApiError => "error_code" in error

/** The one place where domain errors become the contract's error envelope. */
export const toEnvelope = <A, R>(effect: Effect.Effect<A, DomainError | ApiError, R>): Effect.Effect<A, ApiError, R> =>
  Effect.catchAll(effect, (error) =>
    isEnvelope(error)
      ? Effect.fail(error)
      : Effect.flatMap(FiberRef.get(currentTraceId), (traceId) => {
        if (error._tag === "KeyGenerationFailed") return keyStoreUnavailable(error, traceId)
        return Effect.fail(envelopeFor(error, traceId))
      }))

/** Seconds a tenant is asked to wait when the key store fails: a token's session is reopened in about that. */
export const keyStoreRetryAfterSeconds = 5

// A 503 like the database's: logged as a warning with the store's reason, answered with Retry-After.
const keyStoreUnavailable = (error: Wallets.KeyGenerationFailed, traceId: string) =>
  Effect.gen(function*() {
    yield* Effect.logWarning("key store unavailable", error.message).pipe(Effect.annotateLogs("trace_id", traceId))
    yield* HttpApp.appendPreResponseHandler((_, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(keyStoreRetryAfterSeconds))))
    return yield* Effect.fail(envelopeFor(error, traceId))
  })

/** A 400 for a parameter the schemas cannot judge alone (bounds, formats, ranges). */
export const invalidArgument = (message: string) =>
  Effect.flatMap(FiberRef.get(currentTraceId), (traceId) => Effect.fail(apiError("INVALID_ARGUMENT", message, traceId)))
