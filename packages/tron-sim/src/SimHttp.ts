import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Clock, Duration, Effect, Exit, Fiber, Option, Runtime, type Scope } from "effect"
import { handleControl } from "./ControlApi"
import { stringify } from "./NodeJson"
import { handleProvider, type ProviderReply } from "./ProviderApi"
import type { ProviderSettings } from "./ProviderBook"
import { handleProviderControl } from "./ProviderControl"
import { make, type SimChain } from "./SimChain"
import type { SimConfig } from "./SimConfig"
import * as SimEnergyProvider from "./SimEnergyProvider"
import { MainnetRefused, SimServerError } from "./SimErrors"
import { handleWallet } from "./WalletApi"

/**
 * The simulator as a java-tron node over HTTP (node's own `http` server): `/wallet/*`,
 * `/walletsolidity/*`, the control API `/sim/*` and the simulated energy rental provider
 * (`/provider/v1/*`, its faults under `/sim/provider/*`) on one port. Started in-process inside a
 * Scope and stopped when the scope closes (in-flight requests are cut off). Blocks come from a
 * timer on Effect's Clock, or only from `/sim/mine`. Request handlers run on the runtime that
 * started the server, so a TestClock there drives the node's time too.
 */

export interface SimServerConfig {
  readonly chain: SimConfig
  /** 0, the default, lets the OS pick a free port. */
  readonly port?: number
  readonly host?: string
  /** `timer` (default): a block every `blockIntervalMs`; `manual`: blocks only on `/sim/mine`. */
  readonly blocks?: "timer" | "manual"
  /** Prices and limits of the simulated energy provider. */
  readonly provider?: Partial<ProviderSettings>
}

export interface SimServer {
  /** `http://host:port`, for both the full node and the solidity URL. */
  readonly url: string
  readonly port: number
  /** The network, with the energy provider acting before each block it mines. */
  readonly chain: SimChain
  readonly provider: SimEnergyProvider.SimProvider
}

interface Reply {
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
const respond = (chain: SimChain, provider: SimEnergyProvider.SimProvider, path: string, body: string): Effect.Effect<Reply> =>
  Effect.gen(function*() {
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
    return Option.match(reply, { onNone: () => ({ status: 404, text: `no such endpoint: ${path}` }), onSome: (value) => json(200, value) })
  })

const write = (response: ServerResponse, reply: Reply) => {
  if (response.destroyed || response.writableEnded) return
  if (reply.drop === true) return void response.destroy()
  response.writeHead(reply.status, { "content-type": reply.status === 200 || reply.status === 400 ? "application/json" : "text/plain" })
  response.end(reply.text)
}

const listen = (server: Server, port: number, host: string) =>
  Effect.async<void, SimServerError>((resume) => {
    const onError = (error: Error) => resume(Effect.fail(new SimServerError({ reason: `cannot listen on ${host}:${port}: ${error.message}` })))
    server.once("error", onError)
    server.listen(port, host, () => {
      server.off("error", onError)
      resume(Effect.void)
    })
  })

const close = (server: Server) =>
  Effect.async<void>((resume) => {
    server.closeAllConnections()
    server.close(() => resume(Effect.void))
  })

export const start = (config: SimServerConfig): Effect.Effect<SimServer, MainnetRefused | SimServerError, Scope.Scope> =>
  Effect.gen(function*() {
    if (config.chain.network === "main") {
      return yield* new MainnetRefused({ reason: "the TRON simulator serves test networks only; configure it as nile" })
    }
    const bare = yield* make(config.chain)
    const provider = yield* SimEnergyProvider.make(bare, config.provider)
    const chain = SimEnergyProvider.driven(bare, provider)
    const runtime = yield* Effect.runtime<never>()
    const inFlight = new Set<Fiber.RuntimeFiber<Reply>>()
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const path = new URL(request.url ?? "/", "http://sim").pathname
        const fiber = Runtime.runFork(runtime)(respond(chain, provider, path, Buffer.concat(chunks).toString("utf8")))
        inFlight.add(fiber)
        fiber.addObserver((exit) => {
          inFlight.delete(fiber)
          write(response, Exit.isSuccess(exit) ? exit.value : { status: 500, text: "simulator failure" })
        })
      })
    })
    const host = config.host ?? "127.0.0.1"
    yield* Effect.acquireRelease(listen(server, config.port ?? 0, host), () =>
      Effect.zipRight(Fiber.interruptAll([...inFlight]), close(server)))
    if ((config.blocks ?? "timer") === "timer") {
      const interval = Duration.millis(config.chain.blockIntervalMs)
      yield* Effect.forkScoped(Effect.forever(Effect.zipRight(Effect.sleep(interval), chain.mine())))
    }
    const port = (server.address() as AddressInfo).port
    return { url: `http://${host}:${port}`, port, chain, provider }
  })
