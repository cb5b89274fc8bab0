import { PgAccessTokenRepository, PgTenantRepository } from "@collector/postgres"
import { AesGcmSecretBox, NodeEntropy } from "@collector/vault"
import { Layer } from "effect"
import { Authenticator } from "../gate/Authenticator.js"
import type { GateSettings } from "../gate/GateSettings.js"
import { TestServerLive } from "./TestServer.js"

/**
 * The test server plus a second, directly callable Authenticator (with the access-token
 * repository) over the same database, for checks no served route can reach yet.
 */
export const AuthenticatorTestLive = (settings: Partial<GateSettings> = {}) =>
  Authenticator.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(PgTenantRepository.layer, PgAccessTokenRepository.layer, AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer)))),
    Layer.provideMerge(TestServerLive(settings))
  )
