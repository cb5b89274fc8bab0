import { type AppCredential, encodeRfc3986, signatureHeaders } from "@collector/api"
import { Clock, Effect } from "effect"
import type { InProcessServer, WireResponse } from "./InProcessServer.js"

const tokenPath = "/open/v1/auth/token"

/** A token is fetched again this long before it expires, as the SDK does (its default margin). */
const refreshMarginMillis = 5 * 60_000

const encoder = new TextEncoder()

/**
 * A tenant's client of the in-process API, signing as docs/authentication.md says with the
 * contract's own canonical string and signature (`@collector/api`, which the SDK signs with):
 * a token from the app's signed token request, then every call signed with it as the bearer.
 * Timestamps come from the run's clock; the token is kept until near its expiry and fetched
 * again once if a call is refused with 401.
 */
export class TenantClient {
  private readonly tokens = new Map<string, { readonly token: string; readonly expiresAt: number }>()

  constructor(private readonly server: InProcessServer) {}

  private signed(app: AppCredential, method: "GET" | "POST", target: string, body: Uint8Array, token: string) {
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const headers = signatureHeaders(app, { method, target, token, body, timestamp: String(Math.floor(now / 1000)) })
      if (method === "POST" && !target.startsWith(tokenPath)) headers.push(["content-type", "application/json"])
      return this.server.send({ method, target, headers, body })
    })
  }

  private token(app: AppCredential) {
    return Effect.gen(this, function*() {
      const now = yield* Clock.currentTimeMillis
      const held = this.tokens.get(app.appId)
      if (held !== undefined && held.expiresAt - refreshMarginMillis > now) return held.token
      const answer = yield* this.signed(app, "POST", tokenPath, new Uint8Array(), "")
      if (answer.status !== 200) return yield* Effect.dieMessage(`the token request of app ${app.appId} answered ${answer.status}: ${answer.body}`)
      const issued = JSON.parse(answer.body).data as { readonly access_token: string; readonly expires_in: number }
      this.tokens.set(app.appId, { token: issued.access_token, expiresAt: now + issued.expires_in * 1000 })
      return issued.access_token
    })
  }

  /** A signed call with the app's bearer token; `query` as name and value pairs, written RFC 3986 encoded. */
  call(
    app: AppCredential,
    method: "GET" | "POST",
    path: string,
    options: { readonly body?: Record<string, unknown>; readonly query?: ReadonlyArray<readonly [string, string]> } = {}
  ): Effect.Effect<WireResponse> {
    const query = (options.query ?? []).map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`).join("&")
    const target = query === "" ? path : `${path}?${query}`
    const body = options.body === undefined ? new Uint8Array() : encoder.encode(JSON.stringify(options.body))
    const attempt = Effect.flatMap(this.token(app), (token) => Effect.map(this.signed(app, method, target, body, token), (answer) => ({ token, answer })))
    return Effect.flatMap(attempt, ({ answer, token }) => {
      if (answer.status !== 401) return Effect.succeed(answer)
      // A token can be revoked early (secret rotation): fetch a new one once.
      if (this.tokens.get(app.appId)?.token === token) this.tokens.delete(app.appId)
      return Effect.map(attempt, (again) => again.answer)
    })
  }
}
