import { consoleSettingsFor, OperatorAccess, router as consoleRouter } from "@collector/console"
import { Engine, type Kernel, Notifications, Settings, type Storage, type Webhook } from "@collector/core"
import { HttpRouter, HttpServer, type HttpServerError, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { describeOperator, type OperatorSettings } from "./OperatorSettings.js"
import { PrometheusMetrics } from "./PrometheusMetrics.js"

const noStore = { "cache-control": "no-store" }

/** `/readyz`'s body: the verdict, what is not ready and why, and every check as it was judged. */
export const readinessBody = (report: Engine.ReadinessReport) => ({
  status: report.ready ? "ready" : "not_ready",
  not_ready: report.checks.filter((check) => !check.ready).map(({ component, detail, network }) => ({ component, ...(network === undefined ? {} : { network }), reason: detail })),
  checks: report.checks.map(({ component, detail, network, ready }) => ({ component, ...(network === undefined ? {} : { network }), ready, detail }))
})

const router = HttpRouter.empty.pipe(
  // Answered by the process's own event loop: alive means able to answer at all.
  HttpRouter.get("/healthz", HttpServerResponse.unsafeJson({ status: "ok" }, { headers: noStore })),
  HttpRouter.get(
    "/readyz",
    Effect.flatMap(Engine.Readiness, (readiness) => readiness.check).pipe(
      Effect.map((report) => HttpServerResponse.unsafeJson(readinessBody(report), { status: report.ready ? 200 : 503, headers: noStore }))
    )
  ),
  HttpRouter.get(
    "/metrics",
    Effect.flatMap(PrometheusMetrics, (metrics) =>
      Effect.map(metrics.text, (text) => HttpServerResponse.text(text, { contentType: metrics.contentType, headers: noStore })))
  )
)

/** What the console's pages and actions are built on: the domain services the API uses too. */
const consoleServices = Layer.mergeAll(OperatorAccess.layer, Notifications.Notifications.layer, Settings.SettingsService.layer)

/**
 * The operator's endpoints, on their own port outside the tenant API (no gate, no signature, no
 * access log): `GET /healthz` (200 while the process runs), `GET /readyz` (200 when `Readiness`
 * says so, else 503 naming what is not ready), `GET /metrics` (Prometheus text) and the web
 * console under `/console` (an operator token or its session required: `@collector/console`). With
 * `OPERATOR_PORT=0` nothing is served; the process's `Readiness` is still required, so every
 * kind of process is built the same way.
 */
export const layer = (
  settings: OperatorSettings
): Layer.Layer<never, HttpServerError.ServeError, Engine.Readiness | Storage.StoragePorts | Kernel.Entropy | Webhook.WebhookTargets> =>
  settings.port === 0
    ? Layer.effectDiscard(Effect.asVoid(Engine.Readiness))
    : Layer.merge(
      HttpServer.serve(HttpRouter.concat(router, consoleRouter(consoleSettingsFor(settings.host)))),
      Layer.effectDiscard(HttpServer.addressFormattedWith((address) => Effect.log(`operator endpoints at ${address}: /healthz, /readyz, /metrics, /console`)))
    ).pipe(
      Layer.provide(PrometheusMetrics.layer),
      Layer.provide(consoleServices),
      Layer.provide(NodeHttpServer.layer(createServer, { port: settings.port, host: settings.host }))
    )

/** The start line's field. */
export const describe = (settings: OperatorSettings) => ({ operator: describeOperator(settings) })
