import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Duration, Effect, Exit, Fiber, Runtime, type Scope } from "effect"
import type { ProviderSettings } from "./ProviderBook.js"
import type { SimChain } from "./SimChain.js"
import type { SimConfig } from "./SimConfig.js"
import type * as SimEnergyProvider from "./SimEnergyProvider.js"
import { type MainnetRefused, SimServerError } from "./SimErrors.js"
import { build, type Reply, respond } from "./SimNetwork.js"

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
  /** Prices and limits of the second one, served under `/provider/b/v1` (SimNetwork). */
  readonly secondProvider?: Partial<ProviderSettings>
}

export interface SimServer {
  /** `http://host:port`, for both the full node and the solidity URL. */
  readonly url: string
  readonly port: number
  /** The network, with the energy provider acting before each block it mines. */
  readonly chain: SimChain
  readonly provider: SimEnergyProvider.SimProvider
  readonly secondProvider: SimEnergyProvider.SimProvider
}

const write = (response: ServerResponse, reply: Reply) => {
  if (response.destroyed || response.writableEnded) return
  if (reply.drop === true) return void response.destroy()
  response.writeHead(reply.status, { "content-type": reply.status === 200 || reply.status === 400 ? "application/json" : "text/plain" })
  response.end(reply.text)
}

const listen = (server: Server, port: number, host: string) =>
  Effect.async<void, SimServerError>((resume) => {
    const onError = (error: Error) => resume(Effect.fail(new SimServerError({ reason: `cannot listen on ${host}:${port}: ${error.message}`, cause: error })))
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
    const { chain, provider, secondProvider } = yield* build(config.chain, config.provider, config.secondProvider)
    const runtime = yield* Effect.runtime<never>()
    const inFlight = new Set<Fiber.RuntimeFiber<Reply>>()
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const path = new URL(request.url ?? "/", "http://sim").pathname
        const fiber = Runtime.runFork(runtime)(respond(chain, provider, path, Buffer.concat(chunks).toString("utf8"), secondProvider))
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
    return { url: `http://${host}:${port}`, port, chain, provider, secondProvider }
  })
