import { HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"

// Effect's own HTTP stack with one route and nothing else: the floor under our API's cost.
const body = JSON.stringify({ code: 0, message: "", data: { ok: true } })
const app = HttpRouter.empty.pipe(HttpRouter.get("/", Effect.succeed(HttpServerResponse.text(body, { contentType: "application/json" }))))
HttpServer.serve(app).pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { port: Number(process.env.PORT), host: "127.0.0.1" })),
  Layer.launch,
  Effect.withTracerEnabled(false),
  NodeRuntime.runMain
)
