import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** Every error response has this shape, whatever its status; `code` equals the HTTP status. */
const envelopeFields = (status: number, ...errorCodes: [string, ...Array<string>]) => ({
  // A literal per status, so that a decoder can never take one class for another.
  code: Schema.Literal(status),
  message: Schema.String,
  error_code: Schema.Literal(...errorCodes),
  trace_id: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{32}$/))
})

export type ErrorEnvelope = {
  readonly code: number
  readonly message: string
  readonly error_code: string
  readonly trace_id: string
}

// Plain classes (not TaggedError) so no `_tag` reaches the wire; one class per status so that
// the typed client picks the decoder by status.
export class InvalidArgument extends Schema.Class<InvalidArgument>("InvalidArgument")(envelopeFields(400, "INVALID_ARGUMENT"), HttpApiSchema.annotations({ status: 400, description: "INVALID_ARGUMENT: bad parameter or request format" })) {}
export class Unauthenticated extends Schema.Class<Unauthenticated>("Unauthenticated")(envelopeFields(401, "TOKEN_INVALID_OR_EXPIRED"), HttpApiSchema.annotations({ status: 401, description: "TOKEN_INVALID_OR_EXPIRED: signature, time window or token invalid" })) {}
export class TenantUnavailable extends Schema.Class<TenantUnavailable>("TenantUnavailable")(envelopeFields(403, "TENANT_UNAVAILABLE"), HttpApiSchema.annotations({ status: 403, description: "TENANT_UNAVAILABLE: tenant disabled, deleted or expired" })) {}
export class NotFound extends Schema.Class<NotFound>("NotFound")(envelopeFields(404, "RESOURCE_NOT_FOUND", "ROUTE_NOT_FOUND"), HttpApiSchema.annotations({ status: 404, description: "RESOURCE_NOT_FOUND or ROUTE_NOT_FOUND" })) {}
export class MethodNotAllowed extends Schema.Class<MethodNotAllowed>("MethodNotAllowed")(envelopeFields(405, "METHOD_NOT_ALLOWED"), HttpApiSchema.annotations({ status: 405, description: "METHOD_NOT_ALLOWED: wrong method for the path" })) {}
export class Conflict extends Schema.Class<Conflict>("Conflict")(envelopeFields(409, "BUSINESS_CONFLICT", "IDEMPOTENCY_CONFLICT"), HttpApiSchema.annotations({ status: 409, description: "BUSINESS_CONFLICT or IDEMPOTENCY_CONFLICT" })) {}
export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(envelopeFields(413, "PAYLOAD_TOO_LARGE"), HttpApiSchema.annotations({ status: 413, description: "PAYLOAD_TOO_LARGE: body exceeds the configured size limit" })) {}
export class RateLimited extends Schema.Class<RateLimited>("RateLimited")(envelopeFields(429, "RATE_LIMITED"), HttpApiSchema.annotations({ status: 429, description: "RATE_LIMITED: too many requests (an app's rate; a client address's unauthenticated requests or failed authentications; a tenant's node budget for estimates); Retry-After gives seconds" })) {}
export class InternalError extends Schema.Class<InternalError>("InternalError")(envelopeFields(500, "INTERNAL_ERROR"), HttpApiSchema.annotations({ status: 500, description: "INTERNAL_ERROR" })) {}
export class ServiceUnavailable extends Schema.Class<ServiceUnavailable>("ServiceUnavailable")(envelopeFields(503, "SERVICE_UNAVAILABLE"), HttpApiSchema.annotations({ status: 503, description: "SERVICE_UNAVAILABLE: all in-flight slots (taken by authenticated requests only) are taken (Retry-After: 1), or the database or the key store cannot be reached now (Retry-After: 5); retry after the given seconds" })) {}
export class RequestTimeout extends Schema.Class<RequestTimeout>("RequestTimeout")(envelopeFields(504, "REQUEST_TIMEOUT"), HttpApiSchema.annotations({ status: 504, description: "REQUEST_TIMEOUT: the request deadline passed" })) {}

export const errorClassByStatus = {
  400: InvalidArgument,
  401: Unauthenticated,
  403: TenantUnavailable,
  404: NotFound,
  405: MethodNotAllowed,
  409: Conflict,
  413: PayloadTooLarge,
  429: RateLimited,
  500: InternalError,
  503: ServiceUnavailable,
  504: RequestTimeout
} as const

export type ErrorStatus = keyof typeof errorClassByStatus
export type ApiError = InstanceType<(typeof errorClassByStatus)[ErrorStatus]>

export const errorCodes = {
  INVALID_ARGUMENT: 400,
  TOKEN_INVALID_OR_EXPIRED: 401,
  TENANT_UNAVAILABLE: 403,
  RESOURCE_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  BUSINESS_CONFLICT: 409,
  IDEMPOTENCY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  REQUEST_TIMEOUT: 504
} as const satisfies Record<string, ErrorStatus>

export type ErrorCode = keyof typeof errorCodes

export const apiError = (errorCode: ErrorCode, message: string, traceId: string): ApiError => {
  const status = errorCodes[errorCode]
  return new errorClassByStatus[status]({ code: status as never, message, error_code: errorCode as never, trace_id: traceId })
}
