import { HttpApiBuilder, type HttpServerResponse } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { apiError, ContractApi } from "@collector/api"
import { Effect, FiberRef } from "effect"
import { currentTraceId } from "./RequestContext"

type Issue = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

const describe = (issues: ReadonlyArray<Issue>) => {
  const first = issues[0]
  if (first === undefined) return "invalid request"
  const where = first.path.map(String).join(".")
  const what = first.message.startsWith("is unexpected") ? "unknown field" : first.message.split("\n")[0]
  return where === "" ? `invalid request: ${what}` : `invalid request: ${where}: ${what}`
}

/** Schema decoding failures of path, query and body become the 400 envelope. */
export const DecodeErrorsLive = HttpApiBuilder.middleware(
  ContractApi,
  (app) =>
    // The app's error channel is typed `never` here, although HttpApi fails it with decode errors.
    Effect.catchIf(
      app as unknown as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>,
      (error): error is HttpApiDecodeError => error instanceof HttpApiDecodeError,
      (error) =>
        Effect.flatMap(FiberRef.get(currentTraceId), (traceId) => Effect.fail(apiError("INVALID_ARGUMENT", describe(error.issues), traceId)))
    ) as unknown as typeof app,
  { withContext: true }
)
