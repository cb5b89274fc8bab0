import { canonicalString, encodeRfc3986, parseCanonicalQuery, sign } from "@collector/api"
import { CollectorApiError, CollectorError, CollectorNetworkError, CollectorTimeoutError, CollectorUnexpectedResponseError } from "./CollectorErrors.js"

export interface ReadTransportOptions {
  readonly baseUrl: string
  readonly appId: string
  readonly secret: string
  readonly timeoutMs: number
  readonly maxRetries: number
  readonly tokenRefreshMarginMs: number
  readonly fetch: typeof globalThis.fetch
}

const tokenPath = "/open/v1/auth/token"
const noBody = new Uint8Array()

interface Envelope {
  readonly code?: unknown
  readonly message?: unknown
  readonly error_code?: unknown
  readonly trace_id?: unknown
  readonly data?: unknown
}

/** The contract's error envelope as an Error; anything else as an unexpected answer. */
const failureOf = (status: number, body: Envelope | undefined): CollectorError =>
  body !== undefined && typeof body.error_code === "string" && typeof body.message === "string" && typeof body.trace_id === "string"
    ? new CollectorApiError({ status, code: body.error_code, message: body.message, requestId: body.trace_id })
    : new CollectorUnexpectedResponseError(`unexpected response: HTTP ${status}`, status)

class Retryable extends Error {
  constructor(readonly failure: CollectorError, readonly waitMs: number | undefined) {
    super(failure.message)
  }
}

/**
 * The Promise client's reads (GET), sent without going through Effect: they are most of a
 * tenant's calls and Effect's HTTP client costs about twice their client CPU (docs/benchmarks.md,
 * "Tenant SDK overhead"). The same signing as the Effect client (the server's own canonical
 * string, query canonicalisation and HMAC from the contract package), the same policy: its own
 * access token, fetched once and renewed before expiry or once after a 401; timeouts, network
 * errors, 429 and 503 tried again with back-off. Answers are the contract's envelopes; `data` is
 * returned as sent (writes, which the Effect client sends, are still checked by the schemas).
 */
export const makeReadTransport = (options: ReadTransportOptions) => {
  let held: { readonly token: string; readonly expiresAt: number } | undefined
  let pending: Promise<string> | undefined

  const signedHeaders = (method: string, path: string, canonicalQuery: string, token: string) => {
    const timestamp = String(Math.floor(Date.now() / 1000))
    const canonical = canonicalString({ method, path, appId: options.appId, timestamp, accessToken: token, canonicalQuery, body: noBody })
    const headers: Record<string, string> = { "x-app-id": options.appId, "x-timestamp": timestamp, "x-sign": sign(options.secret, canonical) }
    if (token !== "") headers.authorization = `Bearer ${token}`
    return headers
  }

  /** One attempt: the envelope's `data`, or a failure marked retryable when the policy allows. */
  const attempt = async (method: string, path: string, rawQuery: string, canonicalQuery: string, token: string): Promise<{ status: number; body: Envelope | undefined }> => {
    let response: Response
    let text: string
    try {
      response = await options.fetch(`${options.baseUrl}${path}${rawQuery === "" ? "" : `?${rawQuery}`}`, {
        method,
        headers: signedHeaders(method, path, canonicalQuery, token),
        signal: AbortSignal.timeout(options.timeoutMs)
      })
      text = await response.text()
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
      throw new Retryable(timedOut ? new CollectorTimeoutError("request timed out", { cause: error }) : new CollectorNetworkError("request failed", { cause: error }), undefined)
    }
    let body: Envelope | undefined
    try {
      body = JSON.parse(text) as Envelope
    } catch {
      body = undefined
    }
    if (response.status === 429 || response.status === 503) {
      const retryAfter = response.headers.get("retry-after")
      throw new Retryable(failureOf(response.status, body), retryAfter !== null && /^[0-9]+$/.test(retryAfter) ? Number(retryAfter) * 1000 : 1000)
    }
    return { status: response.status, body }
  }

  /** Tries `once` again on a retryable failure, up to `maxRetries` times, with back-off. */
  const withRetries = async <A>(once: () => Promise<A>): Promise<A> => {
    for (let retries = 0; ; retries++) {
      try {
        return await once()
      } catch (error) {
        if (!(error instanceof Retryable)) throw error
        if (retries >= options.maxRetries) throw error.failure
        await new Promise((resolve) => setTimeout(resolve, error.waitMs ?? 200 * 2 ** retries))
      }
    }
  }

  const issue = async (): Promise<string> => {
    const { status, body } = await withRetries(() => attempt("POST", tokenPath, "", "", ""))
    const data = body?.data as { access_token?: unknown; expires_in?: unknown } | undefined
    if (status !== 200 || body?.code !== 0 || typeof data?.access_token !== "string" || typeof data.expires_in !== "number") throw failureOf(status, body)
    held = { token: data.access_token, expiresAt: Date.now() + data.expires_in * 1000 }
    return data.access_token
  }

  // Concurrent callers share one token request.
  const currentToken = (): Promise<string> => {
    if (held !== undefined && held.expiresAt - options.tokenRefreshMarginMs > Date.now()) return Promise.resolve(held.token)
    pending ??= issue().finally(() => (pending = undefined))
    return pending
  }

  const get = async (path: string, query: Readonly<Record<string, string>>): Promise<unknown> => {
    const rawQuery = Object.entries(query).map(([key, value]) => `${encodeRfc3986(key)}=${encodeRfc3986(value)}`).join("&")
    const parsed = parseCanonicalQuery(rawQuery)
    if (!parsed.ok) throw new CollectorError(`cannot sign query: ${parsed.reason}`)
    return withRetries(async () => {
      let token = await currentToken()
      let answer = await attempt("GET", path, rawQuery, parsed.canonical, token)
      // A token can be revoked early (secret rotation); fetch a new one once.
      if (answer.status === 401) {
        if (held?.token === token) held = undefined
        token = await currentToken()
        answer = await attempt("GET", path, rawQuery, parsed.canonical, token)
      }
      if (answer.status !== 200 || answer.body?.code !== 0) throw failureOf(answer.status, answer.body)
      return answer.body.data
    })
  }

  return { get }
}
