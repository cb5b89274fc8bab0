import { HttpApiBuilder } from "@effect/platform"
import { ContractApi, CurrentApp } from "@collector/api"
import { Kernel, Tenants } from "@collector/core"
import { Clock, Effect, Encoding } from "effect"
import { hashToken } from "../gate/Authenticator.js"

const tokenLifetimeSeconds = 7200

export const AuthHandlers = HttpApiBuilder.group(ContractApi, "auth", (handlers) =>
  Effect.gen(function*() {
    const tokens = yield* Tenants.AccessTokenRepository
    const entropy = yield* Kernel.Entropy
    return handlers.handle("issueToken", () =>
      Effect.gen(function*() {
        const app = yield* CurrentApp
        // 256 random bits; only the hash is stored, so a database leak yields no usable token.
        const token = Encoding.encodeBase64Url(yield* entropy.bytes(32))
        const expiresAt = new Date((yield* Clock.currentTimeMillis) + tokenLifetimeSeconds * 1000)
        yield* tokens.insert(hashToken(token), app.appId, expiresAt)
        return { access_token: token, token_type: "Bearer" as const, expires_in: tokenLifetimeSeconds, expires_at: expiresAt.toISOString() }
      }))
  }))
