import { Context, Data, Effect, Either } from "effect"
import type { ResolvedTarget } from "../webhook/WebhookTargets.js"

export interface DeliveryRequest {
  /** The round's URL: its path and query are requested, its host is the SNI and Host header. */
  readonly url: string
  /**
   * The checked addresses, tried in order while a connection cannot be made (a response of any
   * kind is the receiver's answer); the transport never resolves the host again.
   */
  readonly targets: ReadonlyArray<ResolvedTarget>
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface DeliveryResponse {
  readonly status: number
  /** The body as read, at most the transport's cap. */
  readonly body: string
  /** True when the body was longer than the cap and reading stopped. */
  readonly truncated: boolean
  /** The Location header of a redirect, which is reported and never followed. */
  readonly location: string | null
}

/** Why no HTTP response was obtained; `message` is what `last_error` shows. */
export class DeliveryFailed extends Data.TaggedError("DeliveryFailed")<{
  readonly kind: "connect" | "tls" | "timeout" | "protocol"
  readonly message: string
}> {}

export type DeliveryResult = Either.Either<DeliveryResponse, DeliveryFailed>

/**
 * Port: POSTs to already-checked addresses, each with its own timeouts. A batch of POSTs is
 * started at once and each result is handed over the moment it is known, through a plain
 * callback rather than a fiber per POST: the dispatcher's per-attempt cost is what bounds its
 * rate, and a slow receiver must not hold back the results of the others.
 */
export class DeliveryTransport extends Context.Tag("@collector/core/DeliveryTransport")<
  DeliveryTransport,
  {
    /**
     * Starts every POST and calls `settled` once for each (with its index), as soon as its
     * result is known, outside any fiber; completes when all have been reported. Interrupted, it
     * abandons the POSTs still open, which are then never reported.
     */
    readonly postEach: (
      requests: ReadonlyArray<DeliveryRequest>,
      settled: (index: number, result: DeliveryResult) => void
    ) => Effect.Effect<void>
  }
>() {}

/** One POST through `postEach`. */
export const postOne = (transport: DeliveryTransport["Type"], request: DeliveryRequest): Effect.Effect<DeliveryResponse, DeliveryFailed> =>
  Effect.suspend(() => {
    let result: DeliveryResult = Either.left(new DeliveryFailed({ kind: "protocol", message: "no result was reported" }))
    return Effect.flatMap(transport.postEach([request], (_, r) => (result = r)), () => result)
  })
