import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import { join } from "node:path"

// The package ships its test certificates (fixtures/tls), so the kit works from an install too.
const tlsDir = join(import.meta.dirname, "../../fixtures/tls")

/** The test CA (PEM) that signed the receiver's certificate; trust it as the extra CA. */
export const testCaPem = readFileSync(join(tlsDir, "ca.pem"), "utf8")
/** Where the test CA lives, for `WEBHOOK_EXTRA_CA_FILE` of a worker process. */
export const testCaFile = join(tlsDir, "ca.pem")

/** How the receiver answers the next requests. */
export type Behaviour =
  | { readonly _tag: "Ack" }
  | { readonly _tag: "Status"; readonly status: number; readonly body: string }
  | { readonly _tag: "Redirect"; readonly location: string }
  | { readonly _tag: "Hang" }
  | { readonly _tag: "Huge" }
  /**
   * Holds every answer until `together` requests are waiting, then acknowledges them all: every
   * request of a burst is in flight at once, however slowly the machine opens the connections.
   */
  | { readonly _tag: "AckTogether"; readonly together: number }
  /** Holds every answer until `release` acknowledges all those held. */
  | { readonly _tag: "Hold" }

export const Ack: Behaviour = { _tag: "Ack" }
export const WrongBody: Behaviour = { _tag: "Status", status: 200, body: "<html>proxy says hello</html>" }
export const ServerError: Behaviour = { _tag: "Status", status: 500, body: '{"code":1,"message":"boom"}' }
export const Hang: Behaviour = { _tag: "Hang" }
export const Hold: Behaviour = { _tag: "Hold" }

export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: string
  readonly at: number
}

/**
 * A loopback HTTPS receiver with the test certificate: records every request and answers as
 * told (per path, falling back to the default). A hanging request is held until the receiver
 * closes.
 */
export const startTestReceiver = (initial: Behaviour = Ack) =>
  Effect.acquireRelease(
    Effect.async<{ server: Server; port: number; state: { received: Array<ReceivedRequest>; behaviour: Behaviour; byPath: Map<string, Behaviour>; connections: number; holding: Array<() => void> } }>((resume) => {
      const state = { received: [] as Array<ReceivedRequest>, behaviour: initial, byPath: new Map<string, Behaviour>(), connections: 0, holding: [] as Array<() => void> }
      let held: Array<() => void> = []
      const server = createServer({ key: readFileSync(join(tlsDir, "server.key")), cert: readFileSync(join(tlsDir, "server.pem")) }, (req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const path = req.url ?? "/"
          state.received.push({ method: req.method ?? "", path, headers: { ...req.headers }, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() })
          const behaviour = state.byPath.get(path) ?? state.behaviour
          const acknowledge = () => res.writeHead(200, { "Content-Type": "application/json" }).end('{"code":0,"message":"ok"}')
          switch (behaviour._tag) {
            case "Ack":
              acknowledge()
              return
            case "Status":
              res.writeHead(behaviour.status, { "Content-Type": "text/plain" }).end(behaviour.body)
              return
            case "Redirect":
              res.writeHead(302, { Location: behaviour.location }).end()
              return
            case "Huge":
              res.writeHead(200, { "Content-Type": "application/json" }).end(`{"code":0,"pad":"${"x".repeat(100 * 1024)}"}`)
              return
            case "AckTogether":
              held.push(acknowledge)
              if (held.length >= behaviour.together) {
                const release = held
                held = []
                release.forEach((answer) => answer())
              }
              return
            case "Hold":
              state.holding.push(acknowledge)
              return
            case "Hang":
              return
          }
        })
      })
      server.on("secureConnection", () => state.connections++)
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, port: (server.address() as AddressInfo).port, state })))
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ port, state }) => ({
    port,
    /** `https://<host>:<port><path>`; `localhost` and `receiver.test` are in the certificate too. */
    url: (path = "/hook", host = "127.0.0.1") => `https://${host}:${port}${path}`,
    received: () => [...state.received] as ReadonlyArray<ReceivedRequest>,
    /** TLS connections accepted so far. */
    connections: () => state.connections,
    /** Requests to one path. */
    receivedAt: (path: string) => state.received.filter((r) => r.path === path),
    /** Acknowledges every request held by `Hold`. */
    release: Effect.sync(() => state.holding.splice(0).forEach((answer) => answer())),
    answer: (behaviour: Behaviour, path?: string) =>
      Effect.sync(() => {
        if (path === undefined) state.behaviour = behaviour
        else state.byPath.set(path, behaviour)
      })
  })))

export type TestReceiver = Effect.Effect.Success<ReturnType<typeof startTestReceiver>>
