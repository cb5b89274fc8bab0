import { HttpServerResponse } from "@effect/platform"
import { type ErrorCode, errorCodes } from "@collector/api"

/** An error envelope written directly by the gate, before or around the typed handlers. */
export const errorResponse = (
  errorCode: ErrorCode,
  message: string,
  traceId: string,
  headers: Record<string, string> = {}
) =>
  HttpServerResponse.unsafeJson(
    { code: errorCodes[errorCode], message, error_code: errorCode, trace_id: traceId },
    { status: errorCodes[errorCode], headers }
  )
