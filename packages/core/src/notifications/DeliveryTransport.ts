import { Context, Data, type Effect } from "effect"
import type { ResolvedTarget } from "../webhook/WebhookTargets"

export interface DeliveryRequest {
  /** The round's URL: its path and query are requested, its host is the SNI and Host header. */
  readonly url: string
  /** The checked address to connect to; the transport never resolves the host again. */
  readonly target: ResolvedTarget
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

/** Port: one POST to one already-checked address, with its own timeouts. */
export class DeliveryTransport extends Context.Tag("@collector/core/DeliveryTransport")<
  DeliveryTransport,
  { readonly post: (request: DeliveryRequest) => Effect.Effect<DeliveryResponse, DeliveryFailed> }
>() {}
