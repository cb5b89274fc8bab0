import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { apiError, ContractApi, contractDocument } from "@collector/api"
import { Storage } from "@collector/core"
import { Effect, FiberRef } from "effect"
import { currentTraceId } from "../gate/RequestContext.js"

const version = "6.0.0"

export const SystemHandlers = HttpApiBuilder.group(ContractApi, "system", (handlers) =>
  Effect.gen(function*() {
    const probe = yield* Storage.StorageProbe
    const document = JSON.stringify(contractDocument())
    return handlers
      .handle("health", () =>
        probe.ping.pipe(
          Effect.timeout("2 seconds"),
          Effect.as({ status: "ok" as const, version, components: [{ component: "database", status: "ok" as const, detail: "" }] }),
          Effect.catchAll(() =>
            Effect.flatMap(FiberRef.get(currentTraceId), (traceId) =>
              Effect.fail(apiError("SERVICE_UNAVAILABLE", "database unreachable", traceId) as never))
          )
        ))
      .handleRaw("openapi", () =>
        Effect.succeed(HttpServerResponse.text(document, { contentType: "application/json" })))
  }))
