import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { databaseRetryAfterSeconds, isDatabaseUnavailable } from "../DatabaseUnavailable.js"
import { parseCanonicalQuery, parseStrictJsonBody } from "@collector/api"
import { Engine } from "@collector/core"
import { Cause, Clock, Context, Duration, Effect, Exit, FiberRef, Layer, LogLevel, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AccessLog } from "./AccessLog.js"
import { makeAddressBudget } from "./AddressBudget.js"
import { Authenticator } from "./Authenticator.js"
import { withDeadline } from "./Deadline.js"
import { errorResponse } from "./ErrorResponse.js"
import { Gate } from "./GateSettings.js"
import { makeRateLimiter } from "./RateLimiter.js"
import { clientAddress, headerCounts, keepQueryPlusSigns, primeBufferedBody, readRawBody, singleHeader, splitTarget } from "./RawRequest.js"
import { currentApp, currentBody, currentTraceId } from "./RequestContext.js"
import { makeRequestMetrics } from "./RequestMetrics.js"
import { endRequestSpan, inRequestSpan, startRequestSpan } from "./RequestSpan.js"
import { matchRoute, type RouteMatch } from "./RouteTable.js"

const jsonContentType = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i
const signatureHeaders = ["x-app-id", "x-timestamp", "x-sign"] as const

const make = Effect.gen(function*() {
  const settings = yield* Gate
  const authenticator = yield* Authenticator
  const accessLog = yield* AccessLog
  const databaseWaits = yield* Engine.DatabaseWaits
  const rateLimit = makeRateLimiter(settings.ratePerSecond, settings.rateBurst)
  const addresses = makeAddressBudget({
    inFlightPerAddress: settings.unauthenticatedPerAddress,
    failuresPerSecond: settings.failuresPerSecond,
    failureBurst: settings.failureBurst
  })
  const deadlineMillis = Duration.toMillis(settings.requestDeadline)
  const recordRequest = makeRequestMetrics()
  let inFlight = 0

  const rejectedAs = (response: HttpServerResponse.HttpServerResponse) => ({ _tag: "Rejected", response }) as const

  /**
   * The unauthenticated phase, within one of the client address's places: the app look-up, the
   * body, the signature, token and tenant, then the app's rate. Ends either rejected or admitted
   * with the request's app and parsed body.
   */
  const authenticateRequest = (
    request: HttpServerRequest.HttpServerRequest,
    traceId: string,
    route: Extract<RouteMatch, { _tag: "Found" }>["route"],
    path: string,
    canonicalQuery: string,
    address: string,
    signature: { readonly appId: string; readonly timestamp: string; readonly sign: string; readonly accessToken: string } | undefined
  ) =>
    Effect.gen(function*() {
      const invalid = (message: string) => rejectedAs(errorResponse("INVALID_ARGUMENT", message, traceId))
      const unauthorized = rejectedAs(errorResponse("TOKEN_INVALID_OR_EXPIRED", "token invalid or expired", traceId))
      const failed = (response: ReturnType<typeof rejectedAs>) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          addresses.chargeFailure(address, now)
          return response
        })
      // An unknown app is turned away before its body is read.
      if (signature !== undefined && !(yield* authenticator.knownApp(signature.appId))) return yield* failed(unauthorized)

      const body = yield* Effect.either(readRawBody(request, settings.maxBodyBytes))
      if (body._tag === "Left") {
        return body.left._tag === "BodyTooLarge"
          ? rejectedAs(errorResponse("PAYLOAD_TOO_LARGE", `request body exceeds ${settings.maxBodyBytes} bytes`, traceId, { connection: "close" }))
          : invalid("invalid request: the body could not be read")
      }
      const raw = body.right
      const takesBody = request.method === "POST" && route.auth !== "signed"
      if (!takesBody && raw.length > 0) {
        return invalid(request.method === "GET" ? "invalid request: GET requests must have an empty body" : "invalid request: this operation accepts no body")
      }
      if (takesBody && !jsonContentType.test(request.headers["content-type"] ?? "")) return invalid("invalid request: Content-Type must be application/json")

      let authenticated = Option.none<Effect.Effect.Success<ReturnType<typeof authenticator.authenticate>>>()
      if (signature !== undefined && route.auth !== "none") {
        const result = yield* Effect.either(authenticator.authenticate({ auth: route.auth, method: request.method, path, canonicalQuery, body: raw, ...signature }))
        if (result._tag === "Left") {
          return yield* failed(
            result.left.status === 403
              ? rejectedAs(errorResponse("TENANT_UNAVAILABLE", "tenant unavailable: disabled, deleted or expired", traceId))
              : unauthorized
          )
        }
        const verdict = rateLimit(result.right.appId, yield* Clock.currentTimeMillis)
        if (!verdict.allowed) {
          return rejectedAs(errorResponse("RATE_LIMITED", "too many requests", traceId, { "retry-after": String(verdict.retryAfterSeconds) }))
        }
        authenticated = Option.some(result.right)
      }
      // Parsed once the caller is known: an unauthenticated body costs no more than its read.
      let parsedBody: Record<string, unknown> = {}
      if (takesBody) {
        const parsed = parseStrictJsonBody(raw)
        if (!parsed.ok) return invalid(parsed.message)
        parsedBody = parsed.value
        primeBufferedBody(request, raw)
      }
      return { _tag: "Admitted", authenticated, parsedBody } as const
    })

  const admit = (app: HttpApp.Default, traceId: string, match: RouteMatch, target: ReturnType<typeof splitTarget>, address: string) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const { hasQuery, path, rawQuery } = target
      if (match._tag === "Unknown") return errorResponse("ROUTE_NOT_FOUND", `route not found: ${path}`, traceId)
      if (match._tag === "WrongMethod") {
        return errorResponse("METHOD_NOT_ALLOWED", `method ${request.method} not allowed on ${path}`, traceId)
      }
      const route = match.route
      const invalid = (message: string) => errorResponse("INVALID_ARGUMENT", message, traceId)
      const counts = headerCounts(request)
      if (counts.has("idempotency-key")) return invalid("invalid request: the Idempotency-Key header is not accepted; send request_id in the body")
      if (counts.has("x-app-secret")) return invalid("invalid request: an app secret is never accepted in a request")

      let canonicalQuery = ""
      if (request.method === "POST" && hasQuery) return invalid("invalid request: POST accepts no query string")
      if (hasQuery) {
        const query = parseCanonicalQuery(rawQuery)
        if (!query.ok) {
          return invalid(query.reason === "repeated_key" ? `invalid request: repeated query key "${query.key}"` : "invalid request: malformed query string")
        }
        if (!route.acceptsQuery) return invalid("invalid request: this operation accepts no query parameters")
        canonicalQuery = query.canonical
        keepQueryPlusSigns(request, path, rawQuery)
      }

      // The headers alone, before any look-up, body read or place is taken.
      let signature: Parameters<typeof authenticateRequest>[6] = undefined
      if (route.auth !== "none") {
        const unauthorized = errorResponse("TOKEN_INVALID_OR_EXPIRED", "token invalid or expired", traceId)
        const [appId, timestamp, sign] = signatureHeaders.map((name) => singleHeader(request, counts, name))
        if (appId === undefined || timestamp === undefined || sign === undefined) return unauthorized
        const authorizations = counts.get("authorization") ?? 0
        let accessToken = ""
        if (route.auth === "signed") {
          if (authorizations > 0) return unauthorized
        } else {
          const header = singleHeader(request, counts, "authorization")
          if (header === undefined || !header.startsWith("Bearer ") || header.length === 7) return unauthorized
          accessToken = header.slice(7)
        }
        const now = yield* Clock.currentTimeMillis
        if (!authenticator.headersPass(appId, timestamp, now)) return unauthorized
        const wait = addresses.failureWait(address, now)
        if (wait > 0) return errorResponse("RATE_LIMITED", "too many failed requests from this address", traceId, { "retry-after": String(wait) })
        signature = { appId, timestamp, sign, accessToken }
      }

      if (!addresses.enter(address)) {
        return errorResponse("RATE_LIMITED", "too many unauthenticated requests from this address", traceId, { "retry-after": "1" })
      }
      const outcome = yield* authenticateRequest(request, traceId, route, path, canonicalQuery, address, signature).pipe(
        Effect.ensuring(Effect.sync(() => addresses.leave(address)))
      )
      if (outcome._tag === "Rejected") return outcome.response
      const run = app.pipe(Effect.locally(currentApp, outcome.authenticated), Effect.locally(currentBody, outcome.parsedBody))
      // An unauthenticated operation (health, the document) holds no tenant's slot.
      if (route.auth === "none") return yield* run
      if (inFlight >= settings.maxInFlight) {
        return errorResponse("SERVICE_UNAVAILABLE", "service busy: all in-flight slots are taken", traceId, { "retry-after": "1" })
      }
      inFlight++
      return yield* Effect.ensuring(run, Effect.sync(() => inFlight--))
    })

  const handle = (app: HttpApp.Default) =>
    Effect.gen(function*() {
      // The metric's clock: sub-millisecond, where most requests take less than a millisecond.
      const arrived = performance.now()
      const started = yield* Clock.currentTimeMillis
      const request = yield* HttpServerRequest.HttpServerRequest
      const target = splitTarget(request.url)
      const route = matchRoute(request.method, target.path)
      // The request span's trace ID while tracing is on; otherwise 122 random bits from the
      // runtime's pooled CSPRNG, as 32 lowercase hex characters.
      const span = yield* startRequestSpan(request.method, route)
      const traceId = span?.traceId ?? randomUUID().replaceAll("-", "")
      const headers: Record<string, string> = {
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "x-trace-id": traceId
      }
      if (route._tag === "Found" && route.route.auth === "signed") headers.pragma = "no-cache"
      // A response from the handlers is written before it returns here, so the envelope headers
      // must be added on the way out as well as to the gate's own responses below.
      const withHeaders = HttpApp.withPreResponseHandler(app, (_, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
      const address = clientAddress(request, settings.clientAddressHeader)
      const exit = yield* withDeadline(
        admit(withHeaders, traceId, route, target, address).pipe(Effect.locally(currentTraceId, traceId), inRequestSpan(span)),
        deadlineMillis
      ).pipe(Effect.exit)
      // The gate's own reads (the app's credential, the token) can meet a database that is
      // restarting or failing over: that is a 503 to retry, as in the handlers, never a 500.
      const unavailable = Exit.isFailure(exit) && [...Cause.defects(exit.cause), ...Cause.failures(exit.cause)].some(isDatabaseUnavailable)
      if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
        yield* (unavailable ? Effect.logWarning("request failed: the database is unreachable", exit.cause) : Effect.logError("request failed", exit.cause)).pipe(
          Effect.annotateLogs("trace_id", traceId)
        )
        // The API waits for the database from here until it answers again (readiness names it).
        if (unavailable) yield* databaseWaits.failed(Engine.apiComponent, undefined, exit.cause)
      }
      const response = Exit.match(exit, {
        onSuccess: Option.getOrElse(() => errorResponse("REQUEST_TIMEOUT", "request deadline exceeded", traceId)),
        onFailure: () =>
          unavailable
            ? errorResponse("SERVICE_UNAVAILABLE", "the database is unreachable; retry shortly", traceId, { "retry-after": String(databaseRetryAfterSeconds) })
            : errorResponse("INTERNAL_ERROR", "internal error", traceId)
      })
      recordRequest(route._tag === "Found" ? route.route : null, response.status, (performance.now() - arrived) / 1000)
      const finished = yield* Clock.currentTimeMillis
      const appIdHeader = request.headers["x-app-id"]
      const appId = appIdHeader !== undefined && /^[0-9]{1,19}$/.test(appIdHeader) ? appIdHeader : ""
      yield* endRequestSpan(span, response.status, appId)
      if (LogLevel.greaterThanEqual(LogLevel.Info, yield* FiberRef.get(FiberRef.currentMinimumLogLevel))) {
        accessLog.write({
          trace_id: traceId,
          app_id: appId,
          method: request.method,
          route: route._tag === "Found" ? route.route.path : "",
          status: response.status,
          duration_ms: finished - started
        })
      }
      return HttpServerResponse.setHeaders(response, headers)
    })

  return { handle } as const
})

/**
 * Every request passes here in a fixed order, all within its deadline (504): route (404/405),
 * headers and query (400; the signature headers' form and time window, 401); the client
 * address's failure budget (429); one of the address's unauthenticated places (429); the app
 * look-up (401), body size and format (413/400), signature, token and tenant (401/403), the
 * app's rate (429), the body's JSON (400); then a tenant's in-flight slot (503) and the typed
 * handlers. Until authenticated a request holds only its address's places, so unauthenticated
 * clients cannot take the tenants' slots. The envelope headers go on every response.
 */
export class RequestGate extends Context.Tag("@collector/http-server/RequestGate")<RequestGate, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(RequestGate, make)
}
