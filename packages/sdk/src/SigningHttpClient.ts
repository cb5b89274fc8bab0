import { HttpBody, HttpClient, HttpClientError, type HttpClientRequest, type HttpClientResponse, UrlParams } from "@effect/platform"
import { canonicalString, encodeRfc3986, parseCanonicalQuery, sign } from "@collector/api"
import { Clock, Duration, Effect, Redacted } from "effect"
import type { SdkConfig } from "./SdkConfig.js"

const tokenPath = "/open/v1/auth/token"

export interface TokenSource {
  readonly current: Effect.Effect<string, unknown>
  readonly invalidate: (token: string) => Effect.Effect<void>
}

const rawQueryOf = (params: UrlParams.UrlParams) =>
  params.map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`).join("&")

// The server's own canonicalisation, so client and server can never disagree on it.
const canonicalQueryOf = (rawQuery: string) => {
  const parsed = parseCanonicalQuery(rawQuery)
  if (!parsed.ok) throw new Error(`cannot sign query: ${parsed.reason}`)
  return parsed.canonical
}

const bodyBytes = (body: HttpBody.HttpBody) => (body._tag === "Uint8Array" ? body.body : new Uint8Array())

const retryAfterMillis = (response: HttpClientResponse.HttpClientResponse) => {
  const header = response.headers["retry-after"]
  return header !== undefined && /^[0-9]+$/.test(header) ? Number(header) * 1000 : 1000
}

/**
 * Signs every request as docs/authentication.md describes and re-signs each attempt (fresh timestamp,
 * fresh token). The query is written here with RFC 3986 encoding so that what is signed is
 * exactly what is sent. Timeouts and transport errors are retried: every write of the
 * contract carries a request_id, so a repeat is answered from the saved result.
 */
export const makeSigningClient = (base: HttpClient.HttpClient, config: SdkConfig, tokens: TokenSource) => {
  const timeout = Duration.decode(config.timeout ?? "20 seconds")
  const maxRetries = config.maxRetries ?? 3
  const secret = Redacted.value(config.appSecret)

  const prepare = (request: HttpClientRequest.HttpClientRequest) =>
    Effect.gen(function*() {
      const url = new URL(request.url)
      const rawQuery = rawQueryOf(request.urlParams)
      const needsToken = url.pathname.startsWith("/open/v1/") && url.pathname !== tokenPath
      const token = needsToken ? yield* tokens.current : ""
      const timestamp = String(Math.floor((yield* Clock.currentTimeMillis) / 1000))
      const canonical = canonicalString({
        method: request.method,
        path: url.pathname,
        appId: config.appId,
        timestamp,
        accessToken: token,
        canonicalQuery: canonicalQueryOf(rawQuery),
        body: bodyBytes(request.body)
      })
      const headers: Record<string, string> = { "x-app-id": config.appId, "x-timestamp": timestamp, "x-sign": sign(secret, canonical) }
      if (needsToken) headers.authorization = `Bearer ${token}`
      url.search = rawQuery
      return {
        token,
        request: {
          ...request,
          url: url.toString().replace(/\?$/, ""),
          urlParams: UrlParams.empty,
          headers: { ...request.headers, ...headers }
        } as HttpClientRequest.HttpClientRequest
      }
    })

  const attempt = (request: HttpClientRequest.HttpClientRequest, tokenRetried: boolean): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
    Effect.gen(function*() {
      const prepared = yield* prepare(request).pipe(
        Effect.mapError((cause) => new HttpClientError.RequestError({ request, reason: "Transport", cause, description: "could not obtain an access token" }))
      )
      const response = yield* base.execute(prepared.request).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () => new HttpClientError.RequestError({ request, reason: "Transport", description: "request timed out" })
        })
      )
      // A token can be revoked early (secret rotation); fetch a new one once.
      if (response.status === 401 && prepared.token !== "" && !tokenRetried) {
        yield* tokens.invalidate(prepared.token)
        return yield* attempt(request, true)
      }
      return response
    })

  const isBusy = (response: HttpClientResponse.HttpClientResponse) => response.status === 429 || response.status === 503

  const send = (request: HttpClientRequest.HttpClientRequest) =>
    Effect.gen(function*() {
      let retries = 0
      while (true) {
        const result = yield* Effect.either(attempt(request, false))
        if (result._tag === "Right" && (!isBusy(result.right) || retries >= maxRetries)) return result.right
        if (result._tag === "Left" && (result.left._tag !== "RequestError" || retries >= maxRetries)) return yield* Effect.fail(result.left)
        const wait = result._tag === "Right" ? retryAfterMillis(result.right) : 200 * 2 ** retries
        retries++
        yield* Effect.sleep(Duration.millis(wait))
      }
    })

  return HttpClient.makeWith(
    (request: Effect.Effect<HttpClientRequest.HttpClientRequest, HttpClientError.HttpClientError>) => Effect.flatMap(request, send),
    Effect.succeed
  ) as HttpClient.HttpClient
}
