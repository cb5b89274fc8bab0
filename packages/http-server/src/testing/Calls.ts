import { Effect } from "effect"
import { send, signedHeaders } from "./RawClient.js"
import type { TestApp } from "./Tenants.js"
import { requestToken } from "./Tenants.js"

/** A fresh access token for the app, through the real token operation. */
export const tokenFor = (url: string, app: TestApp) =>
  Effect.map(requestToken(url, app), (res) => {
    if (res.status !== 200) throw new Error(`token request failed: ${res.text}`)
    return res.json.data.access_token as string
  })

/** A signed, authenticated call; the body is sent exactly as given. */
export const call = (url: string, app: TestApp, token: string, method: "GET" | "POST", target: string, body?: string) =>
  send(url, { method, target, body, headers: signedHeaders(app, { method, target, body, token }) })
