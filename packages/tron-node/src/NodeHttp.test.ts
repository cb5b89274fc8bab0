import { describe, expect, it } from "@effect/vitest"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { nodeHttpClient } from "./NodeHttp.js"

/** A server that answers every request and counts the TCP connections it accepted. */
const countingServer = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly connections: () => number; readonly server: Server }>((resume) => {
    let connections = 0
    const server = createServer((req, res) => {
      req.resume()
      req.on("end", () => res.end('{"ok":true}'))
    })
    server.on("connection", () => void connections++)
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, server })))
  }),
  ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
)

const postMany = (url: string, count: number) =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) => Effect.flatMap(client.execute(HttpClientRequest.bodyText(HttpClientRequest.post(`${url}/wallet/getblock`), `{"n":${i}}`)), (res) => res.text),
      { discard: true }
    ))

describe("nodeHttpClient", () => {
  it.scoped("sends requests one after another over one kept connection", () =>
    Effect.gen(function*() {
      const server = yield* countingServer
      yield* postMany(server.url, 20).pipe(Effect.provide(nodeHttpClient()))
      expect(server.connections()).toBe(1)
    }))

  it.scoped("closes a connection left idle past idleMs, and opens a new one for the next request", () =>
    Effect.gen(function*() {
      const server = yield* countingServer
      yield* Effect.gen(function*() {
        yield* postMany(server.url, 2)
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 400)))
        yield* postMany(server.url, 2)
      }).pipe(Effect.provide(nodeHttpClient(100)))
      expect(server.connections()).toBe(2)
    }))
})
