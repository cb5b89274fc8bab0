import { HttpApiClient, HttpClient } from "@effect/platform"
import { ContractApi } from "@collector/api"
import { Context, Effect, Layer } from "effect"
import type { SdkConfig } from "./SdkConfig.js"
import { makeSigningClient } from "./SigningHttpClient.js"
import { makeTokenCache } from "./TokenCache.js"

/**
 * Builds the typed client of the contract: each operation is a method taking its path, query
 * and body, returning the unwrapped `data`, and failing with the error envelope's class for its
 * status (InvalidArgument, Unauthenticated, Conflict, ...).
 */
export const makeCollectorClient = (config: SdkConfig) =>
  Effect.gen(function*() {
    const base = yield* HttpClient.HttpClient
    let issueToken: Effect.Effect<{ readonly access_token: string; readonly expires_in: number }, unknown> = Effect.dieMessage("client not ready")
    const tokens = yield* makeTokenCache(Effect.suspend(() => issueToken), config.tokenRefreshMargin ?? "5 minutes")
    const signing = makeSigningClient(base, config, tokens)
    const client = yield* HttpApiClient.make(ContractApi, { baseUrl: config.baseUrl, transformClient: () => signing })
    issueToken = client.auth.issueToken()
    return client
  })

export type CollectorClientService = Effect.Effect.Success<ReturnType<typeof makeCollectorClient>>

/** The Effect client as a service, for Effect programs; plain JS and TS use the Promise `CollectorClient`. */
export class CollectorEffectClient extends Context.Tag("@collector/sdk/CollectorEffectClient")<CollectorEffectClient, CollectorClientService>() {
  static readonly layer = (config: SdkConfig) => Layer.effect(CollectorEffectClient, makeCollectorClient(config))
}
