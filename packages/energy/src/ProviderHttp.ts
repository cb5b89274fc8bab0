import { Energy } from "@collector/core"
import { type HttpClient, type HttpClientRequest } from "@effect/platform"
import { Duration, Effect } from "effect"

/**
 * One call to a provider: the status and the body text, or ProviderUnavailable when the outcome
 * cannot be known. A connection failure, no complete answer within `timeout`, HTTP 408, 429 or
 * any 5xx (a gateway timeout included) all leave open whether the provider acted; the caller
 * judges every other status.
 */

export interface ProviderResponse {
  readonly status: number
  readonly text: string
}

export const send = (
  client: HttpClient.HttpClient,
  request: HttpClientRequest.HttpClientRequest,
  timeout: Duration.Duration,
  what: string
): Effect.Effect<ProviderResponse, Energy.ProviderUnavailable> =>
  Effect.gen(function*() {
    const response = yield* client.execute(request)
    const text = yield* response.text
    if (response.status === 408 || response.status === 429 || response.status >= 500) {
      return yield* new Energy.ProviderUnavailable({ reason: `${what}: HTTP ${response.status} ${text.slice(0, 200)}`.trim() })
    }
    return { status: response.status, text }
  }).pipe(
    Effect.catchTags({
      RequestError: (error) => Effect.fail(new Energy.ProviderUnavailable({ reason: `${what}: ${error.message}` })),
      ResponseError: (error) => Effect.fail(new Energy.ProviderUnavailable({ reason: `${what}: ${error.message}` }))
    }),
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () => new Energy.ProviderUnavailable({ reason: `${what}: no answer within ${Duration.format(timeout)}` })
    }),
    Effect.scoped
  )
