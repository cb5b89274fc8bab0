import { canonicalString, parseCanonicalQuery, sign } from "@collector/api"

export interface BenchApp {
  readonly appId: string
  readonly secret: string
}

/** Signature (and bearer) headers for one request; `target` may carry a raw query. */
export const signedHeaders = (app: BenchApp, method: string, target: string, token: string, body = "") => {
  const mark = target.indexOf("?")
  const path = mark === -1 ? target : target.slice(0, mark)
  const query = parseCanonicalQuery(mark === -1 ? "" : target.slice(mark + 1))
  const timestamp = String(Math.floor(Date.now() / 1000))
  const canonical = canonicalString({
    method,
    path,
    appId: app.appId,
    timestamp,
    accessToken: token,
    canonicalQuery: query.ok ? query.canonical : "",
    body: new TextEncoder().encode(body)
  })
  const headers: Record<string, string> = { "x-app-id": app.appId, "x-timestamp": timestamp, "x-sign": sign(app.secret, canonical) }
  if (token !== "") headers.authorization = `Bearer ${token}`
  if (body !== "") headers["content-type"] = "application/json"
  return headers
}

export const fetchToken = async (baseUrl: string, app: BenchApp) => {
  const path = "/open/v1/auth/token"
  const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers: signedHeaders(app, "POST", path, "") })
  return (await res.json()).data.access_token as string
}
