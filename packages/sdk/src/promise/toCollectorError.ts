import { HttpClientError } from "@effect/platform"
import { errorClassByStatus } from "@collector/api"
import { Cause, ParseResult } from "effect"
import {
  CollectorApiError,
  CollectorError,
  CollectorNetworkError,
  CollectorTimeoutError,
  CollectorUnexpectedResponseError,
  CollectorValidationError
} from "./CollectorErrors.js"

const envelopeClasses: ReadonlyArray<new(...args: Array<never>) => unknown> = Object.values(errorClassByStatus)

const isEnvelope = (error: unknown): error is { code: number; message: string; error_code: string; trace_id: string } =>
  envelopeClasses.some((cls) => error instanceof cls)

// The signing client's description of an attempt that got no answer in time (SigningHttpClient.ts).
const timedOut = "request timed out"
const tokenFailed = "could not obtain an access token"

/** One failure of the Effect client as the Promise client's `Error`. */
export const toCollectorError = (error: unknown): CollectorError => {
  if (error instanceof CollectorError) return error
  if (isEnvelope(error)) return new CollectorApiError({ status: error.code, code: error.error_code, message: error.message, requestId: error.trace_id })
  if (ParseResult.isParseError(error)) return new CollectorValidationError(ParseResult.TreeFormatter.formatErrorSync(error), { cause: error })
  if (HttpClientError.isHttpClientError(error)) {
    if (error._tag === "RequestError") {
      // The token request's own failure: a refused secret is the API's 401, a silent server a timeout.
      if (error.description === tokenFailed && error.cause !== undefined) return toCollectorError(error.cause)
      if (error.description === timedOut) return new CollectorTimeoutError("request timed out", { cause: error })
      return new CollectorNetworkError(error.description ?? `request failed (${error.reason})`, { cause: error })
    }
    return new CollectorUnexpectedResponseError(`unexpected response: HTTP ${error.response.status} (${error.reason})`, error.response.status, { cause: error })
  }
  return new CollectorError(error instanceof Error ? error.message : "unexpected failure", { cause: error })
}

/** A failed run's cause as one `Error`: the expected failure if there is one, else the defect. */
export const causeToCollectorError = (cause: Cause.Cause<unknown>): CollectorError => {
  const failure = Cause.failureOption(cause)
  if (failure._tag === "Some") return toCollectorError(failure.value)
  if (Cause.isInterruptedOnly(cause)) return new CollectorError("request interrupted")
  return toCollectorError(Cause.squash(cause))
}
