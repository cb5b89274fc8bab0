import { parseCanonicalQuery } from "./CanonicalQuery.js"
import { canonicalString, sign } from "./Signature.js"

/** An app's credential as the operator handed it over. */
export interface AppCredential {
  readonly appId: string
  readonly secret: string
}

export interface SignedRequest {
  readonly method: string
  /** The path and raw query exactly as sent (`/open/v1/wallets?limit=5`). */
  readonly target: string
  /** The access token sent as the bearer; "" (or absent) for the token operation. */
  readonly token?: string
  readonly body?: string | Uint8Array
  /** Unix seconds as text. */
  readonly timestamp: string
}

const noBody = new Uint8Array()

/**
 * X-App-Id, X-Timestamp, X-Sign and, with a token, Authorization for one request: the signing
 * every client of ours shares (docs/authentication.md). A raw query that is not canonical is
 * signed as if empty, so the server refuses it with its own explanation.
 */
export const signatureHeaders = (app: AppCredential, request: SignedRequest): Array<readonly [string, string]> => {
  const mark = request.target.indexOf("?")
  const path = mark === -1 ? request.target : request.target.slice(0, mark)
  const query = parseCanonicalQuery(mark === -1 ? "" : request.target.slice(mark + 1))
  const token = request.token ?? ""
  const body = typeof request.body === "string" ? new TextEncoder().encode(request.body) : request.body ?? noBody
  const canonical = canonicalString({
    method: request.method,
    path,
    appId: app.appId,
    timestamp: request.timestamp,
    accessToken: token,
    canonicalQuery: query.ok ? query.canonical : "",
    body
  })
  const headers: Array<readonly [string, string]> = [["x-app-id", app.appId], ["x-timestamp", request.timestamp], ["x-sign", sign(app.secret, canonical)]]
  if (token !== "") headers.push(["authorization", `Bearer ${token}`])
  return headers
}
