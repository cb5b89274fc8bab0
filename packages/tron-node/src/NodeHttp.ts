import { NodeHttpClient } from "@effect/platform-node"
import { Layer } from "effect"

/**
 * The HTTP client the worker speaks to TRON nodes with: node:http with connections kept open.
 * `NodeHttpClient.layer` builds its agent with Node's defaults, which for an agent of one's own
 * means a new TCP connection per request: at two requests a block (the scanner) and nine a sweep
 * that was a large share of both sides' CPU (bench:chain). An idle connection is closed after
 * `idleMs`, below the five seconds java-tron's Jetty and common proxies keep one open, so a
 * request is not written into a connection the server is closing.
 */
export const nodeHttpClient = (idleMs = 4_000) =>
  NodeHttpClient.layerWithoutAgent.pipe(Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: true, timeout: idleMs })))
