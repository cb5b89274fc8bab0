import { HttpApiBuilder, type HttpServerResponse } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { apiError, ContractApi } from "@collector/api"
import { Engine } from "@collector/core"
import { Cause, Effect, FiberRef, Option } from "effect"
import { databaseRetryAfterSeconds, isDatabaseUnavailable } from "../DatabaseUnavailable.js"
import { errorResponse } from "./ErrorResponse.js"
import { currentTraceId } from "./RequestContext.js"

type Issue = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

const describe = (issues: ReadonlyArray<Issue>) => {
  const first = issues[0]
  if (first === undefined) return "invalid request"
  const where = first.path.map(String).join(".")
  const what = first.message.startsWith("is unexpected") ? "unknown field" : first.message.split("\n")[0]
  return where === "" ? `invalid request: ${what}` : `invalid request: ${where}: ${what}`
}

/**
 * Failures the handlers do not turn into an envelope themselves, seen before the platform
 * encodes them: schema decoding of path, query and body becomes 400; a defect (a storage
 * failure, a bug) becomes 500 with its cause logged under the trace ID, never shown.
 * Without this a defect would be written as an empty 500.
 */
export const ContractErrorsLive = HttpApiBuilder.middleware(
  ContractApi,
  (app) =>
    // The app's error channel is typed `never` here, although HttpApi fails it with decode errors.
    Effect.catchAllCause(app as unknown as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>, (cause) =>
      Effect.gen(function*() {
        const traceId = yield* FiberRef.get(currentTraceId)
        const failure = Cause.failureOption(cause)
        if (Option.isSome(failure)) {
          return yield* failure.value instanceof HttpApiDecodeError
            ? Effect.fail(apiError("INVALID_ARGUMENT", describe(failure.value.issues), traceId))
            : Effect.failCause(cause)
        }
        if (Cause.isInterruptedOnly(cause)) return yield* Effect.failCause(cause)
        // The database restarting is not a bug: a 503 to retry, with the cause logged as a warning.
        if (Cause.defects(cause).pipe((defects) => [...defects].some(isDatabaseUnavailable))) {
          yield* Effect.logWarning("database unavailable", cause).pipe(Effect.annotateLogs("trace_id", traceId))
          yield* Effect.flatMap(Engine.DatabaseWaits, (waits) => waits.failed(Engine.apiComponent, undefined, cause))
          return errorResponse("SERVICE_UNAVAILABLE", "service unavailable: the database is not reachable, retry later", traceId, {
            "retry-after": String(databaseRetryAfterSeconds)
          })
        }
        yield* Effect.logError("request failed", cause).pipe(Effect.annotateLogs("trace_id", traceId))
        return yield* Effect.fail(apiError("INTERNAL_ERROR", "internal error", traceId))
      })) as unknown as typeof app,
  { withContext: true }
)
