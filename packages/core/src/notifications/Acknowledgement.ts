import type { DeliveryResponse } from "./DeliveryTransport.js"

/** Most characters of a response body kept with an attempt. */
export const responseExcerptLength = 1024

export interface Verdict {
  readonly delivered: boolean
  /** Empty when delivered; otherwise what `last_error` says. */
  readonly error: string
}

const topLevelCode = (body: string): { readonly json: boolean; readonly code?: unknown } => {
  try {
    const value: unknown = JSON.parse(body)
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { json: true }
    return { json: true, code: (value as Record<string, unknown>).code }
  } catch {
    return { json: false }
  }
}

/**
 * The contract: delivered only on HTTP 200 with a JSON object whose top-level `code` is the
 * number 0. Everything else fails with a reason naming what was wrong, so a proxy's HTML 200
 * page or a redirect to a login page is never taken as delivered.
 */
export const judgeResponse = (response: DeliveryResponse): Verdict => {
  const { status } = response
  if (status >= 300 && status < 400) {
    return {
      delivered: false,
      error: `HTTP ${status} redirect to ${response.location ?? "(no Location header)"}; redirects are not followed`
    }
  }
  if (status !== 200) return { delivered: false, error: `HTTP ${status}: expected 200` }
  if (response.truncated) return { delivered: false, error: "HTTP 200 but the response body is too large" }
  const parsed = topLevelCode(response.body)
  if (!parsed.json) return { delivered: false, error: "HTTP 200 but the response body is not JSON" }
  if (parsed.code === 0) return { delivered: true, error: "" }
  const code = parsed.code === undefined ? "missing" : JSON.stringify(parsed.code)
  return { delivered: false, error: `HTTP 200 but the response's top-level "code" is ${code}; expected 0` }
}

// A NUL, or half of a surrogate pair (a body cut inside an emoji, or a receiver's broken text).
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Text a receiver controls, made storable: PostgreSQL's text and JSON refuse NUL and unpaired
 * surrogates, and one outcome it refuses would fail the whole batch of outcomes written with it,
 * again on every retry. Each such character becomes U+FFFD.
 */
export const storableText = (text: string): string => text.replace(unstorable, "\uFFFD")

export const responseExcerpt = (body: string): string => storableText(body.slice(0, responseExcerptLength))
