import { Clock, Duration, Effect, Option } from "effect"
import { handleControl } from "./ControlApi.js"
import { stringify } from "./NodeJson.js"
import { handleProvider, type ProviderReply } from "./ProviderApi.js"
import type { ProviderSettings } from "./ProviderBook.js"
import { handleProviderControl } from "./ProviderControl.js"
import { make, type SimChain } from "./SimChain.js"
import type { SimConfig } from "./SimConfig.js"
import * as SimEnergyProvider from "./SimEnergyProvider.js"
import { MainnetRefused } from "./SimErrors.js"
import { handleWallet } from "./WalletApi.js"

/**
 * The simulated network as requests and replies, without a socket: the node API (`/wallet/*`,
 * `/walletsolidity/*`), the control API (`/sim/*`) and the energy rental provider
 * (`/provider/v1/*`, its faults under `/sim/provider/*`). `SimHttp` serves it over HTTP;
 * `SimInProcess` answers the node adapter's requests in the caller's own process.
 */

export interface Reply {
  readonly status: number
  readonly text: string
  /** Close the connection instead of answering. */
  readonly drop?: boolean
}

const json = (status: number, body: unknown): Reply => ({ status, text: stringify(body) })

const gatewayTimeout: Reply = { status: 504, text: "Gateway Timeout" }

/** A provider reply; a lost one is a 504, a closed connection, or a 504 after holding the request. */
const providerReply = (reply: ProviderReply): Effect.Effect<Reply> => {
  if (reply._tag === "Answer") return Effect.succeed(json(reply.status, reply.body))
  if (reply.lost.mode === "close") return Effect.succeed({ status: 0, text: "", drop: true })
  if (reply.lost.mode === "504") return Effect.succeed(gatewayTimeout)
  return Effect.as(Effect.sleep(Duration.millis(reply.lost.holdMs)), gatewayTimeout)
}

/** One request: the provider and control first, then the node API, which an injected outage may fail or hold. */
export const respond = (
  chain: SimChain,
  provider: SimEnergyProvider.SimProvider,
  path: string,
  body: string,
  secondProvider?: SimEnergyProvider.SimProvider
): Effect.Effect<Reply> =>
  Effect.gen(function*() {
    // The second provider answers the same API and faults under its own name: /provider/b/v1/*, /sim/provider/b/*.
    if (secondProvider !== undefined && (path.startsWith(`/provider/${secondProviderName}/`) || path.startsWith(`/sim/provider/${secondProviderName}/`))) {
      return yield* respond(chain, secondProvider, path.replace(`/${secondProviderName}/`, "/"), body)
    }
    if (path.startsWith("/provider/")) {
      const reply = yield* handleProvider(provider, path, body)
      if (Option.isSome(reply)) return yield* providerReply(reply.value)
    }
    const providerControl = yield* handleProviderControl(provider, path, body)
    if (Option.isSome(providerControl)) return json(providerControl.value.status, providerControl.value.body)
    const control = yield* handleControl(chain, path, body)
    if (Option.isSome(control)) return json(control.value.status, control.value.body)
    const outage = yield* chain.outage
    if (Option.isSome(outage) && path.startsWith("/wallet")) {
      if (outage.value.mode === "error") return { status: 503, text: "Service Unavailable" }
      // A node that does not answer: the client's own timeout is what the test exercises.
      yield* Effect.sleep(Duration.millis(outage.value.until - (yield* Clock.currentTimeMillis)))
    }
    const reply = yield* handleWallet(chain, path, body)
    if (Option.isNone(reply)) return { status: 404, text: `no such endpoint: ${path}` }
    // Carried out, then the connection closes before the answer: the caller cannot tell whether it happened.
    if (yield* chain.takeLostReply(path)) return { status: 0, text: "", drop: true }
    return json(200, reply.value)
  })

/** Where the second simulated provider is served: `/provider/b/v1/*`, its faults under `/sim/provider/b/*`; 80 SUN per energy unless set. */
export const secondProviderName = "b"

/**
 * A network (refused as mainnet) with its energy provider, which acts before each block the
 * network mines, and a second provider with prices and faults of its own (to rank two providers).
 */
export const build = (config: SimConfig, provider?: Partial<ProviderSettings>, secondProvider?: Partial<ProviderSettings>) =>
  Effect.gen(function*() {
    if (config.network === "main") {
      return yield* new MainnetRefused({ reason: "the TRON simulator serves test networks only; configure it as nile" })
    }
    const bare = yield* make(config)
    const rentals = yield* SimEnergyProvider.make(bare, provider)
    const second = yield* SimEnergyProvider.make(bare, { pricePerEnergy: 80n, ...secondProvider })
    return { chain: SimEnergyProvider.driven(SimEnergyProvider.driven(bare, rentals), second), provider: rentals, secondProvider: second }
  })
