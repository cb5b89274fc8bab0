import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Ok } from "../Envelope.js"

export const Health = Schema.Struct({
  status: Schema.Literal("ok", "degraded"),
  version: Schema.String,
  components: Schema.Array(Schema.Struct({ component: Schema.String, status: Schema.Literal("ok", "down"), detail: Schema.String }))
})

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/healthz")
      .addSuccess(Ok(Health))
      .annotate(OpenApi.Summary, "Liveness and dependency health")
      .annotate(OpenApi.Description, "Unauthenticated. HTTP 200 while the service can reach its database, 503 otherwise.")
  )
  .add(
    HttpApiEndpoint.get("openapi", "/openapi.json")
      .addSuccess(Schema.Unknown.annotations({ description: "This OpenAPI 3.1.0 document" }))
      .annotate(OpenApi.Summary, "The machine-readable contract")
      .annotate(OpenApi.Description, "Unauthenticated. The OpenAPI 3.1.0 document of API version 6.0.0, served as is (no envelope).")
  )
{}
