import { type ApiError, apiError } from "@collector/api"
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect, FiberRef } from "effect"
import { isDatabaseUnavailable } from "./DatabaseUnavailable.js"
import { currentTraceId } from "./gate/RequestContext.js"

/** Domain failures that reach the HTTP boundary, by tag. */
type DomainError = { readonly _tag: string; readonly message: string }

const envelopeFor = (error: DomainError, traceId: string): ApiError | undefined => {
  switch (error._tag) {
    case "IdempotencyConflict":
      return apiError("IDEMPOTENCY_CONFLICT", error.message, traceId)
    case "CustomIdTaken":
    case "EventNotRedeliverable":
    case "WalletLimitReached":
      return apiError("BUSINESS_CONFLICT", error.message, traceId)
    case "WalletNotFound":
    case "DepositNotFound":
    case "EventNotFound":
    case "SweepNotFound":
      return apiError("RESOURCE_NOT_FOUND", "resource not found", traceId)
    case "SettingRejected":
    case "SelectionTooLarge":
      return apiError("INVALID_ARGUMENT", error.message, traceId)
    case "EstimateBudgetExhausted":
      // Its Retry-After is set by the handler (`withRetryAfter`), which knows the seconds.
      return apiError("RATE_LIMITED", error.message, traceId)
    case "KeyGenerationFailed":
      // The token's reason stays in the log (toEnvelope); the tenant learns only to retry.
      return apiError("SERVICE_UNAVAILABLE", "service unavailable: the key store cannot make a key now, retry later", traceId)
    case "SweepEstimateUnavailable":
      // A dependency failure whose message names no host or detail; the cause was logged where it happened.
      return apiError("INTERNAL_ERROR", error.message, traceId)
    default:
      return undefined
  }
}

const isEnvelope = (error: DomainError | ApiError): error is ApiError => "error_code" in error

/** The one place where domain errors become the contract's error envelope. */
export const toEnvelope = <A, R>(effect: Effect.Effect<A, DomainError | ApiError, R>): Effect.Effect<A, ApiError, R> =>
  Effect.catchAll(effect, (error) =>
    isEnvelope(error)
      ? Effect.fail(error)
      : Effect.flatMap(FiberRef.get(currentTraceId), (traceId) => {
        // A typed storage failure of an unreachable database is left to ContractErrors' 503, with Retry-After.
        if (isDatabaseUnavailable(error)) return Effect.die(error)
        if (error._tag === "KeyGenerationFailed") return keyStoreUnavailable(error, traceId)
        const envelope = envelopeFor(error, traceId)
        // An unmapped typed failure is a programming error; never leak its text.
        return envelope === undefined
          ? Effect.zipRight(Effect.logError("unmapped domain error", error._tag), Effect.fail(apiError("INTERNAL_ERROR", "internal error", traceId)))
          : Effect.fail(envelope)
      }))

/** Seconds a tenant is asked to wait when the key store fails: a token's session is reopened in about that. */
export const keyStoreRetryAfterSeconds = 5

// A 503 like the database's: logged as a warning with the store's reason, answered with Retry-After.
const keyStoreUnavailable = (error: DomainError, traceId: string) =>
  Effect.gen(function*() {
    yield* Effect.logWarning("key store unavailable", error.message).pipe(Effect.annotateLogs("trace_id", traceId))
    yield* HttpApp.appendPreResponseHandler((_, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(keyStoreRetryAfterSeconds))))
    return yield* Effect.fail(envelopeFor(error, traceId)!)
  })

/** A 400 for a parameter the schemas cannot judge alone (bounds, formats, ranges). */
export const invalidArgument = (message: string) =>
  Effect.flatMap(FiberRef.get(currentTraceId), (traceId) => Effect.fail(apiError("INVALID_ARGUMENT", message, traceId)))
