import { type AppCredential, signatureHeaders } from "@collector/api"

export type BenchApp = AppCredential

/** Signature (and bearer) headers for one request; `target` may carry a raw query. */
export const signedHeaders = (app: BenchApp, method: string, target: string, token: string, body = "") => {
  const headers = Object.fromEntries(signatureHeaders(app, { method, target, token, body, timestamp: String(Math.floor(Date.now() / 1000)) }))
  if (body !== "") headers["content-type"] = "application/json"
  return headers
}

export const fetchToken = async (baseUrl: string, app: BenchApp) => {
  const path = "/open/v1/auth/token"
  const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers: signedHeaders(app, "POST", path, "") })
  return (await res.json()).data.access_token as string
}
