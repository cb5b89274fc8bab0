/**
 * One route, `GET /ping`, answering the contract's envelope `{"code":0,"message":"","data":{"ok":true}}`,
 * served four ways (FLOOR_KIND), for bench/server-floor.ts (issue 36 point 1: the floor of each way
 * the tenant API could be served, measured side by side before choosing):
 * - `bare`: node:http, the body built with JSON.stringify per request, nothing else;
 * - `runtime`: node:http, the handler an Effect program (reads a service from its context, encodes
 *   the envelope with its Schema) run per request by a ManagedRuntime with `runCallback`;
 * - `httpapi`: an `HttpApi` with one group and one endpoint (the same Schema as its success),
 *   `HttpApiBuilder.serve` on NodeHttpServer, tracing off: how our API is served today;
 * - `router`: `HttpRouter` with the one route on NodeHttpServer (bench/support/MinimalEffectServer.ts's
 *   server, the floor issue 36 quotes), the body encoded with the same Schema.
 * Every way reads the same service value and writes the same bytes with `content-type: application/json`.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Context, Effect, Layer, ManagedRuntime, Schema } from "effect"
import { createServer } from "node:http"

const Envelope = Schema.Struct({ code: Schema.Number, message: Schema.String, data: Schema.Struct({ ok: Schema.Boolean }) })

/** What the handler reads: a service from its context, as every real handler does. */
class Answer extends Context.Tag("bench/FloorServer/Answer")<Answer, { readonly ok: boolean }>() {}
const AnswerLive = Layer.succeed(Answer, { ok: true })

const handler = Effect.flatMap(Answer, (answer) => Schema.encode(Envelope)({ code: 0, message: "", data: { ok: answer.ok } }))

const port = Number(process.env.PORT)
const host = "127.0.0.1"
const kind = process.env.FLOOR_KIND

if (kind === "bare") {
  const answer = { ok: true }
  createServer((req, res) => {
    if (req.url !== "/ping") {
      res.writeHead(404).end()
      return
    }
    const body = JSON.stringify({ code: 0, message: "", data: { ok: answer.ok } })
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
    res.end(body)
  }).listen(port, host)
} else if (kind === "runtime") {
  const runtime = ManagedRuntime.make(AnswerLive)
  createServer((req, res) => {
    if (req.url !== "/ping") {
      res.writeHead(404).end()
      return
    }
    runtime.runCallback(handler, {
      onExit: (exit) => {
        if (exit._tag === "Failure") {
          res.writeHead(500).end()
          return
        }
        const body = JSON.stringify(exit.value)
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        res.end(body)
      }
    })
  }).listen(port, host)
} else if (kind === "httpapi") {
  const Api = HttpApi.make("floor").add(HttpApiGroup.make("ping").add(HttpApiEndpoint.get("ping", "/ping").addSuccess(Envelope)))
  const PingLive = HttpApiBuilder.group(Api, "ping", (handlers) =>
    handlers.handle("ping", () => Effect.map(Answer, (answer) => ({ code: 0, message: "", data: { ok: answer.ok } }))))
  HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(PingLive))),
    Layer.provide(AnswerLive),
    Layer.provide(NodeHttpServer.layer(createServer, { port, host })),
    Layer.launch,
    Effect.withTracerEnabled(false),
    NodeRuntime.runMain
  )
} else if (kind === "router") {
  const app = HttpRouter.empty.pipe(HttpRouter.get("/ping", Effect.flatMap(handler, (value) => HttpServerResponse.json(value))))
  HttpServer.serve(app).pipe(
    Layer.provide(AnswerLive),
    Layer.provide(NodeHttpServer.layer(createServer, { port, host })),
    Layer.launch,
    Effect.withTracerEnabled(false),
    NodeRuntime.runMain
  )
} else {
  throw new Error(`FLOOR_KIND must be bare, runtime, httpapi or router, not ${kind}`)
}
