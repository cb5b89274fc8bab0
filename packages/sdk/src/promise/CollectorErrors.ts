/**
 * The Promise client's failures, as `Error` subclasses a caller tells apart with `instanceof`.
 * Every one extends `CollectorError`, so `catch (e) { if (e instanceof CollectorError) ... }`
 * covers them all.
 */
export class CollectorError extends Error {
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** The service answered with the contract's error envelope (4xx or 5xx). */
export class CollectorApiError extends CollectorError {
  /** The HTTP status, equal to the envelope's `code`. */
  readonly status: number
  /** The envelope's `error_code`: `INVALID_ARGUMENT`, `BUSINESS_CONFLICT`, `IDEMPOTENCY_CONFLICT`, ... */
  readonly code: string
  /** The envelope's `trace_id`: quote it when asking the operator about this request. */
  readonly requestId: string
  constructor(fields: { readonly status: number; readonly code: string; readonly message: string; readonly requestId: string }) {
    super(fields.message)
    this.status = fields.status
    this.code = fields.code
    this.requestId = fields.requestId
  }
}

/** No answer arrived within the per-attempt timeout, on the last attempt the client was allowed. */
export class CollectorTimeoutError extends CollectorError {}

/** The request could not be sent or its answer not read (refused connection, reset, DNS, ...). */
export class CollectorNetworkError extends CollectorError {}

/**
 * The input does not match the contract (checked before anything is sent, with the same schemas
 * the server uses), or an answer does not match it (a proxy's page, a server of another version).
 */
export class CollectorValidationError extends CollectorError {}

/** An answer that is not the contract's (no envelope, unexpected status); `status` is the HTTP status. */
export class CollectorUnexpectedResponseError extends CollectorError {
  readonly status: number
  constructor(message: string, status: number, options?: { readonly cause?: unknown }) {
    super(message, options)
    this.status = status
  }
}
