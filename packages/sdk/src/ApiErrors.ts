// A tenant handles the contract's error envelopes as these typed errors; they are the api
// package's own classes, so the SDK and the server can never disagree on a code or status.
export {
  apiError,
  type ApiError,
  Conflict,
  type ErrorCode,
  errorCodes,
  type ErrorEnvelope,
  errorClassByStatus,
  type ErrorStatus,
  InternalError,
  InvalidArgument,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  RequestTimeout,
  ServiceUnavailable,
  TenantUnavailable,
  Unauthenticated
} from "@collector/api"
