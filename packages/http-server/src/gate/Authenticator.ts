import { type CurrentApp, canonicalString, verifySignature } from "@collector/api"
import { Kernel, Secrets, Tenants } from "@collector/core"
import { Clock, Context, Data, Duration, Effect, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import type { AuthKind } from "./RouteTable.js"
import { Gate } from "./GateSettings.js"

export class AuthRejected extends Data.TaggedError("AuthRejected")<{ readonly status: 401 | 403 }> {}

export interface SignedRequest {
  readonly auth: Exclude<AuthKind, "none">
  readonly method: string
  readonly path: string
  readonly canonicalQuery: string
  readonly body: Uint8Array
  readonly appId: string
  readonly timestamp: string
  readonly sign: string
  /** The text after `Bearer `; empty for the token operation. */
  readonly accessToken: string
}

interface ResolvedCredential {
  readonly stored: Tenants.StoredCredential
  readonly secret: string
}

export const hashToken = (token: string): Uint8Array => createHash("sha256").update(token, "utf8").digest()

const decoder = new TextDecoder()
const canonicalTimestamp = /^(0|[1-9][0-9]{0,15})$/

const make = Effect.gen(function*() {
  const tenants = yield* Tenants.TenantRepository
  const tokens = yield* Tenants.AccessTokenRepository
  const box = yield* Secrets.SecretBox
  const settings = yield* Gate
  const ttl = Duration.toMillis(settings.credentialCacheTtl)
  // An unknown app ID is remembered longer: guessed IDs then cost one look-up each, not one a request.
  const unknownTtl = Duration.toMillis(settings.unknownAppCacheTtl)
  // Both caches live under a second, so status changes and revocations apply within one;
  // they are dropped whole when they grow past a bound (random app IDs cannot fill memory).
  const cache = new Map<string, { readonly at: number; readonly value: Option.Option<ResolvedCredential> }>()
  const tokenCache = new Map<string, { readonly under: ResolvedCredential; readonly appId: string; readonly expiresAt: number }>()
  const bound = 100_000

  const lookup = (appId: string) =>
    tenants.credential(appId as Kernel.AppId).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.succeedNone,
        onSome: (stored) =>
          box.open(stored.secret, Secrets.appSecretContext(stored.tenantId, stored.network)).pipe(
            Effect.map((bytes) => Option.some({ stored, secret: decoder.decode(bytes) })),
            // A secret sealed under an unknown master key cannot authenticate anyone.
            Effect.catchAll((error) => Effect.as(Effect.logError("cannot open an app secret", error.reason), Option.none()))
          )
      }))
    )

  const resolve = (appId: string, now: number) => {
    const hit = cache.get(appId)
    if (hit !== undefined && now - hit.at < (Option.isNone(hit.value) ? unknownTtl : ttl)) return Effect.succeed(hit.value)
    return Effect.tap(lookup(appId), (value) =>
      Effect.sync(() => {
        if (cache.size >= bound) cache.clear()
        cache.set(appId, { at: now, value })
      }))
  }

  /**
   * The token's app and expiry. A cached token is trusted only under the very credential
   * read it was checked with, so it is re-read whenever the credential is (a rotation
   * deletes tokens). Only known tokens are cached, never misses.
   */
  const findToken = (token: string, credential: ResolvedCredential) => {
    const hash = hashToken(token)
    const key = Buffer.from(hash).toString("hex")
    const hit = tokenCache.get(key)
    if (hit !== undefined && hit.under === credential) return Effect.succeed(Option.some(hit))
    return Effect.map(tokens.find(hash), Option.map((found) => {
      const entry = { under: credential, appId: found.appId as string, expiresAt: found.expiresAt.getTime() }
      if (tokenCache.size >= bound) tokenCache.clear()
      tokenCache.set(key, entry)
      return entry
    }))
  }

  const reject401 = Effect.fail(new AuthRejected({ status: 401 }))

  /** The checks of the headers alone: the app ID's and timestamp's form and the time window. */
  const headersPass = (appId: string, timestamp: string, now: number) =>
    Kernel.isCanonicalPositiveInt64(appId) && canonicalTimestamp.test(timestamp) &&
    Math.abs(Number(timestamp) - Math.floor(now / 1000)) <= settings.timestampWindowSeconds

  /** Whether the app ID names a credential that can authenticate (from memory when seen lately). */
  const knownApp = (appId: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.map(resolve(appId, now), Option.isSome))

  const authenticate = (request: SignedRequest) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      if (!headersPass(request.appId, request.timestamp, now)) return yield* reject401
      const credential = yield* resolve(request.appId, now)
      if (Option.isNone(credential)) return yield* reject401
      const canonical = canonicalString({
        method: request.method,
        path: request.path,
        appId: request.appId,
        timestamp: request.timestamp,
        accessToken: request.accessToken,
        canonicalQuery: request.canonicalQuery,
        body: request.body
      })
      if (!verifySignature(credential.value.secret, canonical, request.sign)) return yield* reject401
      if (request.auth === "bearer") {
        const token = yield* findToken(request.accessToken, credential.value)
        if (Option.isNone(token) || token.value.appId !== credential.value.stored.appId || token.value.expiresAt <= now) {
          return yield* reject401
        }
      }
      const stored = credential.value.stored
      if (!Tenants.isTenantAvailable({ status: stored.tenantStatus, expiresAt: stored.tenantExpiresAt }, new Date(now))) {
        return yield* Effect.fail(new AuthRejected({ status: 403 }))
      }
      return { appId: stored.appId, tenantId: stored.tenantId, network: stored.network } satisfies CurrentApp["Type"]
    })

  return { authenticate, headersPass, knownApp } as const
})

/**
 * Checks the signature headers, the token and the tenant. Every failure of the first two is the
 * same 401 with no hint of which part failed; an unavailable tenant is 403 once the caller has
 * proved it holds the secret.
 */
export class Authenticator extends Context.Tag("@collector/http-server/Authenticator")<Authenticator, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Authenticator, make)
}
